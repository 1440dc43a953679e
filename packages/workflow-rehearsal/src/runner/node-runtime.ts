// The Node a local JavaScript action runs with. GitHub's runner runs every JavaScript action with
// its own Node 24, whatever its `using:` says ("Deprecation of Node 20 on GitHub Actions runners",
// https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/; what
// it says of an older `using:` is `forcedOntoNode24` in local-actions.ts). The rehearsal runs it
// with the Node that runs the rehearsal, never the `node` on PATH (which a runner does not use
// either), and says so where that Node is not 24.

const RUNNER_NODE_MAJOR = 24;

/** The program that runs a JavaScript action's file. */
export const actionNode = (): string => process.execPath;

/** What the rehearsal says of running JavaScript actions with this Node: nothing where it is the runner's. */
export function nodeWarnings(version: string = process.versions.node): string[] {
  return Number(version.split(".")[0]) === RUNNER_NODE_MAJOR
    ? []
    : [
        `The rehearsal runs JavaScript actions with the Node that runs it, ${version}; GitHub's runner has Node ${RUNNER_NODE_MAJOR}`,
      ];
}
