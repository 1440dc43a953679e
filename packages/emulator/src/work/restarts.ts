import type { Outcome } from "../model/outcome.js";
import type { Service } from "../model/world.js";
import { durationMs } from "./outcomes.js";

// A restart rolls the deployment out again. For a moment the previous COMPLETED still shows (as on
// the live platform); then IN_PROGRESS, then COMPLETED or FAILED with a later transition time.

const RESTART_SECONDS = 15;
const STALE_MS = 1000;

export function restartService(service: Service, now: number, outcome: Outcome): void {
  const end = now + Math.max(durationMs(outcome, RESTART_SECONDS), STALE_MS + 1000);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "COMPLETED");
  service.deployment.rewrite(now, [
    {
      at: now + STALE_MS,
      state: { status: "IN_PROGRESS", reason: "DEPLOYING", lastTransitionTime: now + STALE_MS },
    },
    {
      at: end,
      state: {
        status: outcome.status ?? (succeed ? "COMPLETED" : "FAILED"),
        reason: "DEPLOYING",
        lastTransitionTime: end,
      },
    },
  ]);
}
