import { homedir } from "node:os";
import { join } from "node:path";

// cwp's own folder of what outlives a rehearsal, as a user's other caches do (XDG_CACHE_HOME, else
// ~/.cache): the actions it downloaded (`actions/`) and the tool cache its steps find and keep
// tools in (`tool-cache/`, RUNNER_TOOL_CACHE, unless --tool-cache names a team's own).

export const cwpCacheFolder = (env: NodeJS.ProcessEnv, name: "actions" | "tool-cache") =>
  join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "cwp", name);
