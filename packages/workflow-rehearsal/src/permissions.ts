import { isMapping, isString } from "@actions/workflow-parser";
import type { TemplateToken } from "@actions/workflow-parser/templates/tokens/index";

// The workflow token's permissions ("Controlling permissions for GITHUB_TOKEN",
// https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/controlling-permissions-for-github_token):
// a job's `permissions:`, else the workflow's, else the repository's default. Where a level sets
// any scope, every scope it does not name is `none`; `read-all` and `write-all` set them all.
// The repository's default is a setting the rehearsal cannot read: it assumes the one GitHub gives
// repositories created since February 2023, read-only `contents` and `packages` (and `metadata`),
// and says so.

export type Access = "none" | "read" | "write";

export interface Permissions {
  /** Where they come from, as a finding names it. */
  from: string;
  /** Every scope's access where all are one (`read-all`, `write-all`, `{}`); else the named ones. */
  all?: Access;
  scopes: Record<string, Access>;
}

/** The repository's default, as the rehearsal assumes it. */
const DEFAULT: Permissions = {
  from: "no permissions: in the job or the workflow, so the repository's default, which the rehearsal takes as read-only (contents: read, packages: read; GitHub's default for repositories created since February 2023)",
  scopes: { contents: "read", packages: "read", metadata: "read" },
};

const ACCESS = new Set<string>(["none", "read", "write"]);

function read(token: TemplateToken | undefined, from: string): Permissions | undefined {
  if (token === undefined) return undefined;
  if (isString(token)) {
    if (token.value === "read-all") return { from, all: "read", scopes: {} };
    if (token.value === "write-all") return { from, all: "write", scopes: {} };
    return undefined;
  }
  if (!isMapping(token)) return undefined;
  const scopes: Record<string, Access> = {};
  for (const { key, value } of token)
    if (isString(value) && ACCESS.has(value.value)) scopes[key.toString()] = value.value as Access;
  return { from, all: "none", scopes };
}

/** A job's permissions as written (its `permissions:`, its workflow's): its own, else its workflow's, else the repository's default. */
export function permissionsOf(written: { job?: TemplateToken; workflow?: TemplateToken }): Permissions {
  return (
    read(written.job, "the job's permissions:") ??
    read(written.workflow, "the workflow's permissions:") ??
    DEFAULT
  );
}

/** The access `permissions` give a scope. */
export const accessOf = (permissions: Permissions, scope: string): Access =>
  permissions.scopes[scope] ?? permissions.all ?? "none";
