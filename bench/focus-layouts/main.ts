// pnpm --filter @cwp/bench run bench:focus-layouts: the FOCUS dataset's three forms at scale (a
// year by day by default; BENCH_CELL="SCALE/PERIOD/GRANULARITY" picks another), each measured
// once, then the targets. See bench/README.md.
import { measureLayouts, targets } from "./measure.ts";

const [scale = "10x10x20", period = "last-12-months", granularity = "day"] = (process.env.BENCH_CELL ?? "")
  .split("/")
  .filter(Boolean);
const measured = await measureLayouts({ scale, period, granularity });
console.log(
  JSON.stringify(
    { node: process.version, scale, period, granularity, measured, targets: targets(measured) },
    null,
    2,
  ),
);
