import type { CwpClient } from "@cwp/client";
import { ReportOptionError } from "./errors.js";

// A report narrowed to one project, named as every other action names it (`storefront`) or by its
// uid. Billing filters take only the uid (spec 4.1, "Identifiers for filters": a project's uid from
// GET /v1/projects), so an id is looked up in that list, read whole.

const UID = /^[0-9a-f]{24}$/;
/** How many of the ids this token can read the error names. */
const NAMED = 10;

export async function projectUid(
  client: CwpClient,
  project: string,
  call: { signal: AbortSignal; deadline: number },
): Promise<string> {
  const ids: string[] = [];
  for await (const item of client.projects.iterate({ per_page: 100 }, { ...call, wholeList: true })) {
    if (item.id === project || item.uid === project) return item.uid;
    ids.push(item.id);
  }
  // A uid of a project the list does not show (another team's, for an organisation token) is
  // still a uid: the platform's billing answers for it.
  if (UID.test(project)) return project;
  const named =
    ids.length === 0 ? "" : ` (${ids.slice(0, NAMED).join(", ")}${ids.length > NAMED ? ", …" : ""})`;
  throw new ReportOptionError(
    "project",
    `no project ${JSON.stringify(project)} among the ${ids.length} this token can read${named}: give a project's id, as the other actions take it, or its 24-character uid`,
  );
}
