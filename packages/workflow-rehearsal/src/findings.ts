import { type ActionShape, ourAction } from "./our-actions.js";
import { type Job, type Step, stepName } from "./workflow.js";

// What a runner refuses, or what would read as empty on one, found by reading the job before
// anything runs: a `with:` key our action does not have, a step id used twice, and a read of
// `steps.<id>.outputs.<name>` that no earlier step sets. Each finding names the job and the step.

/** The expressions in a step: inside `${{ }}` everywhere, and the whole of `if:`. */
function expressionsOf(step: Step): string[] {
  const texts = [step.name, step.run, ...Object.values(step.with ?? {}), ...Object.values(step.env ?? {})];
  const inside = texts.flatMap((text) =>
    [...String(text ?? "").matchAll(/\$\{\{([\s\S]*?)\}\}/g)].map((m) => m[1] as string),
  );
  return step.if === undefined ? inside : [...inside, String(step.if)];
}

const STEP_READ = /\bsteps\.([A-Za-z_][\w-]*)\.outputs\.([A-Za-z_][\w-]*)/g;

/** Edit distance, for "did you mean": a misspelt input is usually one or two keys off. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1)
      row.push(
        Math.min(
          (previous[j] ?? 0) + 1,
          (row[j - 1] ?? 0) + 1,
          (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The closest of `names` to `name`, if one is close enough to be what was meant. */
export function closest(name: string, names: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const d = distance(name, candidate);
    if (d <= Math.max(2, Math.floor(candidate.length / 4)) && (!best || d < best.distance))
      best = { name: candidate, distance: d };
  }
  return best?.name;
}

export function jobFindings(jobName: string, job: Job, shapes: Record<string, ActionShape>): string[] {
  const findings: string[] = [];
  /** Earlier steps by id: the action's name when it is ours (its outputs are known). */
  const earlier = new Map<string, string | undefined>();
  for (const [index, step] of job.steps.entries()) {
    const where = `job ${jobName}, step "${stepName(step, index)}"`;
    const action = ourAction(step.uses);
    const shape = action === undefined ? undefined : shapes[action];
    if (action !== undefined && shape)
      for (const input of Object.keys(step.with ?? {}))
        if (!Object.hasOwn(shape.inputs, input)) {
          const meant = closest(input, Object.keys(shape.inputs));
          findings.push(
            `${where}: ${action} has no input "${input}"${meant ? `; did you mean "${meant}"?` : ` (its inputs: ${Object.keys(shape.inputs).join(", ")})`}`,
          );
        }
    for (const expression of expressionsOf(step))
      for (const [, id, output] of expression.matchAll(STEP_READ)) {
        if (!earlier.has(id as string)) {
          findings.push(
            `${where} reads steps.${id}.outputs.${output}, but no step before it has the id "${id}"`,
          );
          continue;
        }
        const from = earlier.get(id as string);
        const outputs = from === undefined ? undefined : shapes[from]?.outputs;
        if (outputs && !outputs.includes(output as string)) {
          const meant = closest(output as string, outputs);
          findings.push(
            `${where} reads steps.${id}.outputs.${output}, which ${from} does not set${meant ? `; did you mean "${meant}"?` : ` (its outputs: ${outputs.join(", ")})`}`,
          );
        }
      }
    if (step.id !== undefined) {
      if (earlier.has(step.id)) findings.push(`${where}: the id "${step.id}" is used by an earlier step too`);
      earlier.set(step.id, action);
    }
  }
  return findings;
}
