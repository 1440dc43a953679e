#!/usr/bin/env bash
# pnpm test [turbo flags]: every package's tests through turbo (each after its build; the
# benchmarks' targets among them, on virtual time, CPU time and bytes, which other tests' load
# does not change), all of them even when one fails, so a red run lists every failure. Five
# packages at a time on two cores: many tests mostly wait (on processes, on timeouts), and turbo
# starts the packages that need the most (cli, examples) last, so with three the run ended on the
# CLI's tests alone (a clean-clone CI: the cores busy 82% of the stage). With a filter (`pnpm test --filter=@cwp/client`, `pnpm test:changed`), only the packages it picks.
turbo run test --concurrency=5 --continue "$@"
