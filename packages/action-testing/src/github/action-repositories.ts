import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DOCS, type Route } from "./routes.js";

// Repositories of actions that workflows use (`uses: owner/repo@ref`), as GitHub serves them to a
// runner: a ref (a branch, a tag, a commit's SHA or the start of one) resolved to its commit
// ("Get a commit", the `application/vnd.github.sha` media type: the SHA as text), and the commit's
// tarball ("Download a repository archive (tar)": a redirect to codeload, whose gzipped tar holds
// one folder, `<owner>-<repo>-<short sha>`). A public repository answers without a token; a
// private one as if it did not exist ("Not Found"), unless the token may read it.

export interface ActionRepository {
  /** owner/name. */
  name: string;
  /** Each commit's files (path: text), by its full SHA. */
  commits: Record<string, Record<string, string>>;
  branches?: Record<string, string>;
  tags?: Record<string, string>;
  /** Readable only with the stand-in's workflow token. */
  private?: boolean;
}

/** The path codeload's archives are served at, on the stand-in's own address. */
export const CODELOAD = "/codeload";

/** The repository `owner/repo` names, where the caller may read it. */
export function actionRepository(
  repositories: readonly ActionRepository[],
  owner: string | undefined,
  repo: string | undefined,
  authorized: boolean,
): ActionRepository | undefined {
  const found = repositories.find((r) => r.name.toLowerCase() === `${owner}/${repo}`.toLowerCase());
  return found && (!found.private || authorized) ? found : undefined;
}

/** The commit a ref names: a branch, a tag, a full SHA, or the unique start of one (as `git rev-parse` reads it). */
function commitOf(repository: ActionRepository, ref: string): string | undefined {
  const named = repository.branches?.[ref] ?? repository.tags?.[ref];
  if (named) return named;
  if (!/^[0-9a-f]{4,40}$/i.test(ref)) return undefined;
  const matching = Object.keys(repository.commits).filter((sha) => sha.startsWith(ref.toLowerCase()));
  return matching.length === 1 ? matching[0] : undefined;
}

export const actionRepositoryRoutes = (repositories: readonly ActionRepository[]): Record<string, Route> => ({
  "repos/get-commit": ({ params, headers }, ctx) => {
    const repository = actionRepository(repositories, params.owner, params.repo, ctx.authorized);
    if (!repository)
      return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
    const commit = commitOf(repository, params.ref ?? "");
    if (!commit)
      return {
        status: 422,
        body: { message: `No commit found for SHA: ${params.ref}`, documentation_url: DOCS, status: "422" },
      };
    if (!/application\/vnd\.github\.sha/.test(String(headers.accept ?? "")))
      return { status: 501, body: { message: "the stand-in answers only the SHA media type" } };
    return { status: 200, text: { type: "application/vnd.github.sha; charset=utf-8", body: commit } };
  },
  "repos/download-tarball-archive": ({ params }, ctx) => {
    const repository = actionRepository(repositories, params.owner, params.repo, ctx.authorized);
    if (!repository)
      return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
    const commit = commitOf(repository, params.ref ?? "");
    if (!commit)
      return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
    return {
      status: 302,
      headers: { location: `${ctx.api}${CODELOAD}/${repository.name}/legacy.tar.gz/${commit}` },
    };
  },
});

/** codeload's archive of a commit: a gzipped tar of one folder, `<owner>-<repo>-<short sha>`. */
export function tarball(repositories: readonly ActionRepository[], path: string): Buffer | undefined {
  const match = /^\/codeload\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/([0-9a-f]{40})$/.exec(path);
  if (!match) return undefined;
  const [, owner, repo, commit] = match as unknown as [string, string, string, string];
  const repository = actionRepository(repositories, owner, repo, true);
  const files = repository?.commits[commit];
  if (!files) return undefined;
  const folder = mkdtempSync(join(tmpdir(), "cwp-codeload-"));
  try {
    const top = `${owner}-${repo}-${commit.slice(0, 7)}`;
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, top, file)), { recursive: true });
      writeFileSync(join(folder, top, file), text);
    }
    return execFileSync("tar", ["-czf", "-", "-C", folder, top]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
