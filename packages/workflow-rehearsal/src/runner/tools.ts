import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ToolAsked } from "../records.js";
import { which } from "./shells.js";

// What a `run:` step finds of a tool that an `actions/setup-*` step before it, not run, would have
// installed: the program first on the step's PATH and its version, said once a job, so a test
// that passes on the Node of this machine is not read as a pass on the one the workflow asks for.

const run = promisify(execFile);

/** Each setup action's program, and how it tells its version. */
const PROGRAMS: Record<string, { names: string[]; args: string[] }> = {
  node: { names: ["node"], args: ["--version"] },
  python: { names: ["python", "python3"], args: ["--version"] },
  go: { names: ["go"], args: ["version"] },
  java: { names: ["java"], args: ["-version"] },
  dotnet: { names: ["dotnet"], args: ["--version"] },
  ruby: { names: ["ruby"], args: ["--version"] },
};

/** The line the step's log gets for a tool asked for and not installed. */
export async function toolNote(tool: ToolAsked, path: string, env: NodeJS.ProcessEnv): Promise<string> {
  const program = PROGRAMS[tool.tool];
  const asked = `${tool.action} asked for ${tool.asked}, which the rehearsal does not install`;
  for (const name of program?.names ?? []) {
    const file = which(name, path);
    if (file === undefined) continue;
    const version = await run(file, program?.args ?? [], { env, timeout: 5_000 }).then(
      // java prints its version to stderr.
      ({ stdout, stderr }) => (stdout.trim() || stderr.trim()).split("\n")[0] ?? "",
      () => "(its version could not be read)",
    );
    return `Note: ${tool.tool} ${version} from PATH (${file}); ${asked}`;
  }
  return `Note: no ${tool.tool} on PATH; ${asked}`;
}

/** The tool an `actions/setup-*` step installs, and the version its inputs ask for. */
export function toolAsked(uses: string | undefined, inputs: Record<string, string>): ToolAsked | undefined {
  const tool = /^actions\/setup-(node|python|go|java|dotnet|ruby)(@|$)/i.exec(uses ?? "")?.[1]?.toLowerCase();
  if (tool === undefined) return undefined;
  const version =
    inputs[`${tool}-version`] ||
    (inputs[`${tool}-version-file`] ? `the version in ${inputs[`${tool}-version-file`]}` : "");
  return { tool, action: uses as string, asked: version || "its default version" };
}
