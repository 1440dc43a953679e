#!/usr/bin/env bash
# pnpm check:changesets: every package a change touches since main has a changeset (changesets' own
# `changeset status`). A change no user notices (a test, a comment) says so with an empty one:
# `pnpm changeset --empty`.
set -u
if git rev-parse -q --verify origin/main > /dev/null; then base=origin/main
elif git rev-parse -q --verify main > /dev/null; then base=main
else
  echo "No main branch to compare with: nothing to check." && exit 0
fi
if ! changeset status --since="$base"; then
  echo "Fix: \`pnpm changeset\` (what a user notices, for each package the change touches), or \`pnpm changeset --empty\` for a change no user notices; commit .changeset/*.md." >&2
  exit 1
fi
