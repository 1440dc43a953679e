#!/usr/bin/env bash
# pnpm test [turbo flags]: every package's tests through turbo (each after its build), all of them
# even when one fails, so a red run lists every failure; then, for a whole run, the benchmarks'
# targets on their own. With a filter (`pnpm test --filter=@cwp/client`, `pnpm test:changed`), only
# the packages it picks.
set -u
turbo run test --concurrency=100% --continue "$@"
tests=$?
if [ "$#" -eq 0 ]; then
  pnpm --filter @cwp/bench run test:targets || exit 1
fi
exit "$tests"
