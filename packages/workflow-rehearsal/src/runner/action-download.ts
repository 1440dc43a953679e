import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { promisify } from "node:util";

// Another repository's action (`uses: owner/repo[/path]@ref`), downloaded as the runner's
// ActionManager downloads it while the job is set up (actions/runner src/Runner.Worker/ActionManager.cs
// @0001dcd9, DownloadRepositoryActionAsync): the repository's tarball at the commit its ref names,
// from GitHub's REST API (`GET /repos/{owner}/{repo}/tarball/{ref}`, its redirect followed), its one
// top folder unwrapped ("repository archive from github always contains a nested folder"), then
// copied into the job's `_actions/<owner>/<repo>/<ref>`, which each job has anew. Unlike the
// runner, which starts from nothing on every machine, the rehearsal keeps what it downloaded by
// commit in a folder of cwp's own, so a later rehearsal downloads nothing it already has: a full
// commit SHA is used as kept without asking GitHub; a tag or a branch is resolved again each
// rehearsal (`GET /repos/{owner}/{repo}/commits/{ref}`, the SHA media type), and where GitHub
// cannot be reached, the commit it named last time is used, and said.

const run = promisify(execFile);

export interface RemoteUses {
  owner: string;
  repo: string;
  /** The folder in the repository that holds the action ("" for its root). */
  path: string;
  ref: string;
  /** As written: `owner/repo/path@ref`. */
  uses: string;
}

/** A name GitHub gives an owner or a repository: a path segment of its own, never `.` or `..`. */
const NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;
const FULL_SHA = /^[0-9a-f]{40}$/i;

/** `owner/repo[/path]@ref`, as the runner reads a step's `uses:`; undefined for any other form. */
export function remoteUses(uses: string): RemoteUses | undefined {
  const at = uses.lastIndexOf("@");
  if (at <= 0 || uses.startsWith("./") || uses.startsWith("docker://")) return undefined;
  const [owner = "", repo = "", ...path] = uses.slice(0, at).split("/");
  const ref = uses.slice(at + 1);
  if (!NAME.test(owner) || !NAME.test(repo) || ref === "" || !path.every((part) => NAME.test(part)))
    return undefined;
  return { owner, repo, path: path.join("/"), ref, uses };
}

export type DownloadedAction =
  /** The repository at `commit`, in `folder` (the job's copy where the job has folders, else the kept one). */
  | { kind: "downloaded"; folder: string; commit: string }
  /** What GitHub refuses, in its words: the job fails at set up. */
  | { kind: "refused"; message: string }
  /** GitHub could not be asked (no network, an outage, a rate limit): the step is not rehearsed. */
  | { kind: "unreachable"; message: string };

export interface ActionDownloaderOptions {
  /** GitHub's REST API: https://api.github.com, a GitHub Enterprise Server's, or a test's stand-in. */
  apiUrl: string;
  /** Sent as the download's credentials (rate limits, private actions); never printed. */
  token?: string;
  /** cwp's folder of kept actions, by repository and commit; it outlives the rehearsal. */
  keep: string;
  onLine(line: string): void;
}

/** How long one request to GitHub may take. */
const REQUEST_MS = 60_000;

export class ActionDownloader {
  readonly #options: ActionDownloaderOptions;
  /** Each `owner/repo@ref` resolved once a rehearsal. */
  readonly #resolved = new Map<string, Promise<DownloadedAction>>();

  constructor(options: ActionDownloaderOptions) {
    this.#options = { ...options, apiUrl: options.apiUrl.replace(/\/+$/, "") };
  }

  /**
   * The action's repository at its ref, kept by commit; where `jobActions` is given (the job's
   * `_actions` folder), copied there, as each job gets its own.
   */
  async download(action: RemoteUses, jobActions?: string): Promise<DownloadedAction> {
    const key = `${action.owner}/${action.repo}@${action.ref}`.toLowerCase();
    let resolved = this.#resolved.get(key);
    if (!resolved) {
      resolved = this.#keep(action);
      this.#resolved.set(key, resolved);
    }
    const kept = await resolved;
    if (kept.kind !== "downloaded" || jobActions === undefined) return kept;
    // The runner's layout, `_actions/<owner>/<repo>/<ref>`; a ref that is no plain path, by commit.
    const refFolder = action.ref.split("/").every((part) => NAME.test(part)) ? action.ref : kept.commit;
    const folder = join(jobActions, action.owner, action.repo, refFolder);
    if (!(await exists(folder))) await cp(kept.folder, folder, { recursive: true, verbatimSymlinks: true });
    return { ...kept, folder };
  }

  async #keep(action: RemoteUses): Promise<DownloadedAction> {
    const named = `${action.owner}/${action.repo}@${action.ref}`;
    const repository = join(this.#options.keep, action.owner.toLowerCase(), action.repo.toLowerCase());
    const keptAt = (commit: string) => join(repository, commit);
    const refFile = join(repository, "refs", encodeURIComponent(action.ref));
    // A full SHA names one commit for ever: kept, it is used without asking GitHub.
    if (FULL_SHA.test(action.ref) && (await exists(keptAt(action.ref.toLowerCase()))))
      return this.#kept(named, action.ref.toLowerCase(), keptAt(action.ref.toLowerCase()));
    const resolved = await this.#resolve(action);
    if (resolved.kind === "unreachable") {
      const last = (await readFile(refFile, "utf8").catch(() => "")).trim();
      if (!FULL_SHA.test(last) || !(await exists(keptAt(last)))) return resolved;
      this.#options.onLine(
        `${resolved.message}: using ${named} at ${last}, as an earlier rehearsal downloaded it (it may have moved since)`,
      );
      return { kind: "downloaded", folder: keptAt(last), commit: last };
    }
    if (resolved.kind === "refused") return resolved;
    const { commit } = resolved;
    await mkdir(join(repository, "refs"), { recursive: true });
    await writeAtomically(refFile, commit);
    if (await exists(keptAt(commit))) return this.#kept(named, commit, keptAt(commit));
    this.#options.onLine(`Download action repository '${named}' (SHA:${commit})`);
    const fetched = await this.#tarball(action, commit, keptAt(commit));
    return fetched ?? { kind: "downloaded", folder: keptAt(commit), commit };
  }

  #kept(named: string, commit: string, folder: string): DownloadedAction {
    this.#options.onLine(`Action repository '${named}' (SHA:${commit}) is kept from an earlier rehearsal`);
    return { kind: "downloaded", folder, commit };
  }

  /** The commit a ref names, or GitHub's refusal in its words (the Actions service's, which the runner prints). */
  async #resolve(
    action: RemoteUses,
  ): Promise<{ kind: "resolved"; commit: string } | Exclude<DownloadedAction, { kind: "downloaded" }>> {
    const named = `${action.owner}/${action.repo}@${action.ref}`;
    const answer = await this.#get(
      `/repos/${action.owner}/${action.repo}/commits/${encodeURIComponent(action.ref)}`,
      "application/vnd.github.sha",
    );
    if ("unreachable" in answer) return { kind: "unreachable", message: answer.unreachable };
    const text = (await smallText(answer.response)).trim();
    if (answer.response.status === 404)
      return { kind: "refused", message: `Unable to resolve action \`${named}\`, repository not found` };
    if (answer.response.status === 422)
      return {
        kind: "refused",
        message: `Unable to resolve action \`${named}\`, unable to find version \`${action.ref}\``,
      };
    if (!answer.response.ok || !FULL_SHA.test(text))
      return { kind: "unreachable", message: gitHubAnswered(answer.response, text, this.#options.token) };
    const commit = text.toLowerCase();
    // A ref GitHub resolves as the start of a commit's SHA, not a branch or tag: refused.
    if (
      /^[0-9a-f]+$/i.test(action.ref) &&
      action.ref.length < 40 &&
      commit.startsWith(action.ref.toLowerCase())
    )
      return {
        kind: "refused",
        message: `Unable to resolve action \`${named}\`, the provided ref \`${action.ref}\` is the shortened version of a commit SHA, which is not supported. Please use the full commit SHA \`${commit}\` instead.`,
      };
    return { kind: "resolved", commit };
  }

  /** The repository's tarball at `commit`, unwrapped into `to`; undefined where it is there, else why not. */
  async #tarball(action: RemoteUses, commit: string, to: string): Promise<DownloadedAction | undefined> {
    const incoming = join(this.#options.keep, ".incoming", randomUUID());
    await mkdir(join(incoming, "staging"), { recursive: true });
    try {
      const answer = await this.#get(`/repos/${action.owner}/${action.repo}/tarball/${commit}`);
      if ("unreachable" in answer) return { kind: "unreachable", message: answer.unreachable };
      if (!answer.response.ok || !answer.response.body)
        return {
          kind: "unreachable",
          message: gitHubAnswered(answer.response, await smallText(answer.response), this.#options.token),
        };
      // Streamed to a file: an action's repository may be large, and memory stays bounded.
      const archive = join(incoming, "archive.tar.gz");
      await pipeline(Readable.fromWeb(answer.response.body as NodeWebStream), createWriteStream(archive));
      // As the runner extracts it (tar -xzf), owned by this user whatever the archive says.
      await run("tar", ["-xzf", archive, "--no-same-owner", "-C", join(incoming, "staging")]);
      const top = await readdir(join(incoming, "staging"));
      if (top.length !== 1)
        return {
          kind: "refused",
          message: `'${action.owner}/${action.repo}@${commit}' archive contains '${top.length}' directories`,
        };
      await mkdir(join(to, ".."), { recursive: true });
      // Whole or not at all: a rehearsal stopped mid-download leaves nothing half kept.
      await rename(join(incoming, "staging", top[0] as string), to).catch(async (error) => {
        if (!(await exists(to))) throw error;
      });
      return undefined;
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  async #get(path: string, accept?: string): Promise<{ response: Response } | { unreachable: string }> {
    const url = `${this.#options.apiUrl}${path}`;
    try {
      const response = await fetch(url, {
        headers: {
          accept: accept ?? "application/vnd.github+json",
          "x-github-api-version": "2022-11-28",
          "user-agent": "cwp-rehearse",
          ...(this.#options.token ? { authorization: `Bearer ${this.#options.token}` } : {}),
        },
        redirect: "follow",
        signal: AbortSignal.timeout(REQUEST_MS),
      });
      return { response };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return {
        unreachable: `GitHub (${this.#options.apiUrl}) could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      };
    }
  }
}

/** What GitHub said where it neither gave the commit nor refused the ref (a rate limit, an outage). */
function gitHubAnswered(response: Response, text: string, token: string | undefined): string {
  let message = "";
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? "");
  } catch {}
  const said = message ? `: ${message.slice(0, 200)}` : "";
  const limited = response.status === 403 || response.status === 429;
  return `GitHub answered ${response.status}${said}${limited && !token ? " (GITHUB_TOKEN in the environment raises the rate limit)" : ""}`;
}

/** The start of an answer's text: a SHA or an error's message is short, and more is not read. */
async function smallText(response: Response, max = 4096): Promise<string> {
  let text = "";
  for await (const chunk of (response.body ?? new ReadableStream()).pipeThrough(new TextDecoderStream())) {
    text += chunk;
    if (text.length > max) break;
  }
  return text.slice(0, max);
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const partial = `${file}.${randomUUID()}`;
  await writeFile(partial, text);
  await rename(partial, file);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
