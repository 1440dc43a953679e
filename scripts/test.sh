#!/usr/bin/env bash
# pnpm test [turbo flags]: every package's tests through turbo (each after its build; the
# benchmarks' targets among them, on virtual time, CPU time and bytes, which other tests' load
# does not change), all of them even when one fails, so a red run lists every failure. Three
# packages at a time on two cores: their tests mostly wait (on processes, on timeouts). With a
# filter (`pnpm test --filter=@cwp/client`, `pnpm test:changed`), only the packages it picks.
turbo run test --concurrency=3 --continue "$@"
