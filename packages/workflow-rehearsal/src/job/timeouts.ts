import type { TemplateToken } from "@actions/workflow-parser/templates/tokens/index";
import { type Scope, tokenText, tokenValue } from "../expressions.js";

// How long a job and a step may run.

/** GitHub's `timeout-minutes` for a job that sets none ("Workflow syntax", jobs.<job_id>.timeout-minutes). */
const JOB_TIMEOUT_MINUTES = 360;

/** A `timeout-minutes` as a number (it may be an expression), refused where it is none. */
function minutes(token: TemplateToken, scope: Scope): number {
  const value = Number(tokenValue(token, scope));
  if (!Number.isFinite(value))
    throw new Error(`timeout-minutes must be a number of minutes (got ${tokenText(token, scope)})`);
  return value;
}

/**
 * A step's `timeout-minutes` in milliseconds, undefined where it has none. The runner reads it as
 * whole minutes, the fraction cut off, and sets no timeout for 0 or less: `(Int32)numberToken.Value`
 * (actions/runner src/Sdk/DTPipelines/Pipelines/ObjectTemplating/PipelineTemplateConverter.cs
 * @02359d2b, line 210, ConvertToStepTimeout), then `if (timeoutMinutes > 0)` (src/Runner.Worker/
 * StepsRunner.cs @00a736d9, RunStepAsync). So `timeout-minutes: 0.5` is no timeout at all.
 */
export function stepTimeoutMs(token: TemplateToken | undefined, scope: Scope): number | undefined {
  if (token === undefined) return undefined;
  const whole = Math.trunc(minutes(token, scope));
  return whole > 0 ? whole * 60_000 : undefined;
}

/**
 * A job's `timeout-minutes` in milliseconds (360 minutes where none is set). GitHub's service,
 * not the runner, ends a job at its timeout; its code is not public, and the rehearsal takes the
 * number as written, a fraction too.
 */
export function jobTimeoutMs(token: TemplateToken | undefined, scope: Scope): number {
  if (token === undefined) return JOB_TIMEOUT_MINUTES * 60_000;
  const value = minutes(token, scope);
  if (!(value > 0)) throw new Error(`timeout-minutes must be a number of minutes above 0 (got ${value})`);
  return value * 60_000;
}
