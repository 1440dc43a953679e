import { homedir } from "node:os";
import { join } from "node:path";
import type { ActionDownloader } from "@cwp/workflow-rehearsal";
import { RehearsalInputError } from "./platform.js";

// Where `cwp rehearse` gets other repositories' actions: GitHub's REST API (--github-api-url, else
// GITHUB_API_URL as a runner sets it, else api.github.com), with GITHUB_TOKEN from the environment
// as the download's credentials (never printed, never on a command line), kept by commit in cwp's
// own cache folder (XDG_CACHE_HOME, else ~/.cache), so a later rehearsal downloads nothing it has.

export const GITHUB_API = "https://api.github.com";

/** The API the actions come from, checked: an http(s) URL, or bad input naming the flag. */
export function gitHubApiUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = flag ?? (env.GITHUB_API_URL || GITHUB_API);
  const from =
    flag !== undefined ? "--github-api-url" : env.GITHUB_API_URL ? "GITHUB_API_URL" : "the default";
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new RehearsalInputError(
      `${from} must be an http(s) URL of GitHub's REST API (got ${JSON.stringify(url)})`,
    );
  return url;
}

/** cwp's folder of kept actions: it outlives a rehearsal, as the user's other caches do. */
export const keptActionsFolder = (env: NodeJS.ProcessEnv) =>
  join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "cwp", "actions");

export function actionDownloader(
  engine: { ActionDownloader: typeof ActionDownloader },
  apiUrl: string,
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
): ActionDownloader {
  return new engine.ActionDownloader({
    apiUrl,
    ...(env.GITHUB_TOKEN ? { token: env.GITHUB_TOKEN } : {}),
    keep: keptActionsFolder(env),
    onLine,
  });
}
