// bench/wait-efficiency: prints what the scenarios measured (see scenarios.ts) and their targets.
// Run: pnpm build && pnpm --filter @cwp/bench run bench:wait-efficiency
import { tenWaitsStreamingLogs, withHistory, withoutHistory } from "./scenarios.ts";
import { targets } from "./targets.ts";

const began = Date.now();
const noHistory = await withoutHistory();
const history = { spread20: await withHistory(0.2), spread5: await withHistory(0.05) };
const ten = await tenWaitsStreamingLogs();
console.log(
  JSON.stringify(
    {
      noHistory,
      history,
      tenWaitsStreamingLogs: ten,
      targets: Object.fromEntries(targets({ noHistory, history, ten }).map((t) => [t.name, t.met])),
      wallSeconds: (Date.now() - began) / 1000,
    },
    null,
    2,
  ),
);
