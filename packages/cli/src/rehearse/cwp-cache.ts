import { homedir } from "node:os";
import { join } from "node:path";

// cwp's own folder of what outlives a rehearsal, as a user's other caches do (XDG_CACHE_HOME, else
// ~/.cache): the actions it downloaded (`actions/`), the tool cache its steps find and keep tools
// in (`tool-cache/`, RUNNER_TOOL_CACHE, unless --tool-cache names a team's own), and each
// repository's caches (`caches/<owner>/<repo>/`, as a repository's caches outlive a run on GitHub).

export const cwpCacheFolder = (env: NodeJS.ProcessEnv, name: "actions" | "tool-cache" | "caches") =>
  join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "cwp", name);
