import { mappingText } from "../../expressions.js";
import type { StepHandler } from "../step-handler.js";

// actions/checkout, as the rehearsal stands in for it. Its inputs are read as its own
// src/input-helper.ts reads them (actions/checkout @011c9c50, getInputs). Of the repository being
// rehearsed, at the event's ref and commit, into the workspace, it is rehearsed as done: under
// --run-shell the workspace copy becomes what checkout makes (`runner/checkout.ts`); without it
// the steps read the clone as it is, which is what that checkout would have made. Any other
// checkout is listed as not rehearsed, saying why.

/** Whether the step uses actions/checkout, at any version. */
export const isCheckout = (uses: string | undefined) => /^actions\/checkout(@|$)/i.test(uses ?? "");

const TRUE = (value: string | undefined, otherwise: string) => (value || otherwise).toUpperCase() === "TRUE";

/** Why a checkout is not the repository being rehearsed at the event's commit into the workspace, or undefined where it is. */
function otherCheckout(
  inputs: Record<string, string>,
  facts: { repository: string; ref: string; sha: string },
): string | undefined {
  const repository = inputs.repository;
  if (repository && repository.toUpperCase() !== facts.repository.toUpperCase())
    return `it checks out ${repository}, another repository, which the rehearsal does not fetch`;
  const ref = inputs.ref;
  const short = facts.ref.replace(/^refs\/(heads|tags)\//, "");
  if (ref && ![facts.ref, short, facts.sha].includes(ref))
    return `it checks out ref ${ref}, not the rehearsed ${facts.ref} at ${facts.sha.slice(0, 12)}`;
  const path = inputs.path;
  if (path && path !== "." && path !== "./")
    return `it checks out into path ${path}, not the workspace itself`;
  if (TRUE(inputs.lfs, "false")) return "lfs: true, which the rehearsal does not fetch";
  const submodules = (inputs.submodules || "").toUpperCase();
  if (submodules === "TRUE" || submodules === "RECURSIVE")
    return `submodules: ${inputs.submodules}, which the rehearsal does not fetch`;
  if ((inputs["sparse-checkout"] ?? "").trim() !== "")
    return "sparse-checkout, which the rehearsal does not make";
  if (inputs.filter) return `filter: ${inputs.filter}, which the rehearsal does not apply`;
  return undefined;
}

export const runCheckout: StepHandler = async ({ job, step, record, label, scope }) => {
  const { options } = job;
  const inputs = mappingText(step.with, scope);
  record.inputs = inputs;
  const { event } = options;
  const other = otherCheckout(inputs, { repository: options.repository, ref: event.ref, sha: event.sha });
  if (other !== undefined) {
    record.notRehearsed = other;
    return undefined;
  }
  record.kind = "checkout";
  record.action = step.uses as string;
  options.onStepStart?.(record);
  // fetch-depth: a whole number, 1 where empty, 0 (all history) where not a number or below 0.
  const depth = Math.floor(Number(inputs["fetch-depth"] || "1"));
  const fetchDepth = Number.isNaN(depth) || depth < 0 ? 0 : depth;
  record.checkout = options.checkout
    ? await options.checkout({
        name: label,
        ref: event.ref,
        sha: event.sha,
        fetchDepth,
        fetchTags: TRUE(inputs["fetch-tags"], "false"),
      })
    : { code: 0, outputs: { ref: event.ref, commit: event.sha } };
  return record.checkout;
};
