#!/usr/bin/env bash
# pnpm test:loaded [turbo flags]: pnpm test with a busy loop on every core beside it, as on a
# shared CI machine: a test that is green only on an idle machine goes red here.
set -u
loops=()
for _ in $(seq "$(nproc)"); do
  yes > /dev/null &
  loops+=("$!")
done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT
began=$SECONDS
node "$(dirname "$0")/test.ts" "$@"
status=$?
echo "pnpm test beside $(nproc) busy loops: exit $status after $((SECONDS - began)) s"
exit "$status"
