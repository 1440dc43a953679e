#!/usr/bin/env bash
# pnpm test [turbo flags]: every package's tests (the benchmarks' targets among them, on virtual
# time, CPU time and bytes, which other tests' load does not change), all of them even when one
# fails, so a red run lists every failure. First turbo builds what they run (cached when nothing
# changed); then scripts/run-tests.ts runs the test tasks three at a time on two cores, the longest
# first: their tests mostly wait (on processes, on timeouts). With a filter
# (`pnpm test --filter=@cwp/client`, `pnpm test:changed`), only the packages it picks.
set -u
turbo run build --output-logs=errors-only "$@" || exit $?
node "$(dirname "$0")/run-tests.ts" "$@"
