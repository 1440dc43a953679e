// Our actions as a workflow names them: `<owner>/cwp/actions/<name>@<ref>`, the ref a tag, a
// branch or a commit SHA (its `# v1.4.2` comment is YAML's, gone before this sees it).

export const OUR_ACTIONS = [
  "trigger-build",
  "run-job",
  "run-template",
  "upgrade-addon",
  "restore-backup",
  "restart-service",
  "fetch-logs",
  "usage-report",
] as const;

const USES = /^[\w.-]+\/cwp\/actions\/([a-z-]+)@[\w./-]+$/;

/** The action's name when `uses:` names one of ours. */
export function ourAction(uses: string | undefined): string | undefined {
  const name = uses === undefined ? undefined : USES.exec(uses.trim())?.[1];
  return name !== undefined && (OUR_ACTIONS as readonly string[]).includes(name) ? name : undefined;
}

/** An action's inputs (with their action.yml defaults) and outputs, for what a runner checks. */
export interface ActionShape {
  inputs: Record<string, { default?: string | undefined }>;
  outputs: readonly string[];
}
