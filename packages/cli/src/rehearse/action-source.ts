import type { ActionDownloader } from "@cwp/workflow-rehearsal";
import { cwpCacheFolder } from "./cwp-cache.js";
import { RehearsalInputError } from "./input-error.js";

// Where `cwp rehearse` gets other repositories' actions: GitHub's REST API (--github-api-url, else
// GITHUB_API_URL as a runner sets it, else api.github.com), with GITHUB_TOKEN from the environment
// as the download's credentials (never printed, never on a command line), kept by commit in cwp's
// own cache folder (`cwp-cache.ts`), so a later rehearsal downloads nothing it has.

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

export function actionDownloader(
  engine: { ActionDownloader: typeof ActionDownloader },
  apiUrl: string,
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
): ActionDownloader {
  return new engine.ActionDownloader({
    apiUrl,
    ...(env.GITHUB_TOKEN ? { token: env.GITHUB_TOKEN } : {}),
    keep: cwpCacheFolder(env, "actions"),
    onLine,
  });
}
