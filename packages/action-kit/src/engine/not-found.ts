import { NotFoundError } from "@cwp/client";
import { host } from "./host.js";

// A 404 on a resource the step was pointed at is a wrong id in its inputs, not "not found" in the
// API's words: it names the input and the value (`project-id: no project x`). The request's path
// says which inputs it carries; the platform's message, where it names the kind and the id, says
// which of them it did not find.

/** The path's collections that are an input of ours, and the resource each holds, in path order. */
const INPUT_OF_COLLECTION: Record<string, { input: string; kind: string }> = {
  projects: { input: "project-id", kind: "project" },
  services: { input: "service-id", kind: "service" },
  jobs: { input: "job-id", kind: "job" },
  addons: { input: "addon-id", kind: "addon" },
  backups: { input: "backup-id", kind: "backup" },
  templates: { input: "template-id", kind: "template" },
  harnesses: { input: "harness-id", kind: "harness" },
};

interface Named {
  input: string;
  kind: string;
  id: string;
}

/**
 * What to say of a 404 on a path that holds the step's ids; undefined for any other error (or a
 * 404 whose path holds none of them, such as a run the step did not name).
 */
export function wrongIdMessage(error: unknown, inputs: Record<string, unknown>): string | undefined {
  if (!(error instanceof NotFoundError)) return undefined;
  const segments = error.path.split("?")[0]?.split("/") ?? [];
  const named: Named[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    const at = INPUT_OF_COLLECTION[segments[i] as string];
    if (!at) continue;
    const id = safeDecode(segments[i + 1] as string);
    if (inputs[at.input] === id) named.push({ ...at, id });
  }
  if (named.length === 0) return undefined;
  const said = error.message;
  // The deepest first: a message about a service names its project too ("service x not found in project p").
  const found = [...named]
    .reverse()
    .find((n) => new RegExp(`\\b${n.kind}\\s+${escapeRegExp(n.id)}(\\b|\\s|$)`, "i").test(said));
  const wrong = found ?? (named.length === 1 ? named[0] : undefined);
  if (!wrong) {
    const which = named.map((n) => `${host().inputName(n.input)} \`${n.id}\``).join(" or ");
    return `${which}: one of them names nothing the platform has (${said}).`;
  }
  const parent = named[0] !== wrong && named[0]?.kind === "project" ? ` in project \`${named[0].id}\`` : "";
  return `${host().inputName(wrong.input)}: no ${wrong.kind} \`${wrong.id}\`${parent} (${said}).`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
