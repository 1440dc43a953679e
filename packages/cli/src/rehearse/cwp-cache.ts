import { homedir } from "node:os";
import { join } from "node:path";

// cwp's own folder of what outlives a rehearsal, as a user's other caches do (XDG_CACHE_HOME, else
// ~/.cache): the actions it downloaded (`actions/`), the tool cache its steps find and keep tools
// in (`tool-cache/`, RUNNER_TOOL_CACHE, unless --tool-cache names a team's own), and each
// repository's caches (`caches/<owner>/<repo>/`, as a repository's caches outlive a run on GitHub)
// and its runner folders (`runners/<owner>/<repo>/<slot>/`: the same HOME and workspace paths in
// every rehearsal, as on GitHub's runners).

export const cwpCacheFolder = (
  env: NodeJS.ProcessEnv,
  name: "actions" | "tool-cache" | "caches" | "runners",
) => join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "cwp", name);

/** A repository's own folder under one of cwp's: `owner/repo`, each an encoded path segment. */
export const repositoryFolder = (env: NodeJS.ProcessEnv, name: "caches" | "runners", repository: string) =>
  join(cwpCacheFolder(env, name), ...repository.split("/").map((part) => encodeURIComponent(part)));
