import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { IDLE_CONNECTION_MS } from "@cwp/emulator";
import {
  type ActionRepository,
  actionRepository,
  actionRepositoryRoutes,
  CODELOAD,
  tarball,
} from "./action-repositories.js";
import { deploymentRoutes } from "./deployments.js";
import { GitHubDescription } from "./description.js";
import { issueRoutes } from "./issues.js";
import type { Author, Comment, Deployment, Issue } from "./objects.js";
import { type Answer, type Context, DOCS, type Route, type StandInState } from "./routes.js";

// A stand-in for the GitHub REST API of one repository, acme/shop (the one runBundle's runner
// names), in memory, over real HTTP: a test double of GitHub as the emulator is of the platform,
// written from GitHub's docs and importing nothing of ours. Every request is checked against
// GitHub's OpenAPI description; one GitHub would refuse is answered 422 and kept in `violations`,
// which a test expects empty.

/** What the workflow token writes as. */
export const WORKFLOW_BOT: Author = { login: "github-actions[bot]", type: "Bot" };

/** Who a request without a token is: it reads public repositories' actions, nothing else. */
const NOBODY: Author = { login: "", type: "User" };

/** A token that reads but may not write, as a workflow token without the `permissions:` asked for is. */
export const READ_ONLY_TOKEN = "ghs_stand_in_read_only_0123456789";

/** A GitHub App's installation token (as actions/create-github-app-token makes): it writes as its app's bot. */
export const APP_TOKEN = "ghs_stand_in_app_installation_0123";
export const APP_BOT: Author = { login: "cwp-reports[bot]", type: "Bot" };

/** A person's token: `/user` answers who it is. */
export const PERSONAL_TOKEN = "ghp_stand_in_personal_0123456789ab";
export const PERSON: Author = { login: "octo-dev", type: "User" };

/** The commit `main` is at, and the runner's default GITHUB_SHA. */
export const MAIN_SHA = "0123456789abcdef0123456789abcdef01234567";

export interface Fault {
  /** The operation (GitHub's operationId, e.g. `repos/create-deployment-status`). */
  operationId: string;
  /** Answered with this status and GitHub's error body; without one, answered as usual (after `delayMs`). */
  status?: number;
  /** With `status`: GitHub acts first (the deployment is made), then answers with the error. */
  after?: boolean;
  message?: string;
  /** Headers of the answer (`retry-after`, `x-ratelimit-*`). */
  headers?: Record<string, string>;
  /** This body as it is, instead of the answer's (garbage). */
  raw?: string;
  /** Waits this long before answering; `Infinity`: never answers (a hung GitHub). */
  delayMs?: number;
  /** The answer's `Link` names itself as the next page, forever. */
  loopLink?: boolean;
  /** How many requests it answers (1 unless said). */
  times?: number;
  /** Answers only requests whose body has these fields at these values. */
  when?: Record<string, unknown>;
}

export interface StandIn extends StandInState {
  url: string;
  /** Every request, `METHOD /path`, in order. */
  calls: string[];
  /** Requests GitHub would refuse, and answers GitHub would never give: a test expects none. */
  violations: string[];
  /** The next matching requests are answered with this error instead. */
  fail(fault: Fault): void;
  /** Every fault not yet used is dropped. */
  heal(): void;
  close(): Promise<void>;
}

const ROUTES: Record<string, Route> = { ...issueRoutes, ...deploymentRoutes };

let description: GitHubDescription | undefined;

/** Who each token the stand-in takes acts as: installation tokens are refused `/user`. */
function actorOf(
  token: string | undefined,
  workflowToken: string,
): { actor: Author; installation: boolean } | undefined {
  if (token === workflowToken || token === READ_ONLY_TOKEN)
    return { actor: WORKFLOW_BOT, installation: true };
  if (token === APP_TOKEN) return { actor: APP_BOT, installation: true };
  if (token === PERSONAL_TOKEN) return { actor: PERSON, installation: false };
  return undefined;
}

export interface StandInOptions {
  /** Repositories of actions that workflows use, served to a runner that downloads them. */
  actionRepositories?: ActionRepository[];
}

export async function startGitHubStandIn(token: string, options: StandInOptions = {}): Promise<StandIn> {
  const repositories = options.actionRepositories ?? [];
  const routes: Record<string, Route> = { ...ROUTES, ...actionRepositoryRoutes(repositories) };
  description ??= new GitHubDescription();
  const judge = description;
  const state: StandInState = {
    comments: [] as Comment[],
    issues: [] as Issue[],
    deployments: [] as Deployment[],
    branches: { main: MAIN_SHA, "feature/checkout": "89abcdef0123456789abcdef0123456789abcdef" },
  };
  const calls: string[] = [];
  const violations: string[] = [];
  const faults: Fault[] = [];
  let nextId = 100;
  let api = "";

  const hung = new Set<import("node:http").ServerResponse>();
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://github");
    const call = `${method} ${url.pathname}`;
    calls.push(call);
    let fault: Fault | undefined;
    const send = async ({ status, body, text, headers }: Answer) => {
      if (fault?.delayMs !== undefined) {
        if (fault.delayMs === Number.POSITIVE_INFINITY) return void hung.add(res);
        await new Promise((resolve) => setTimeout(resolve, fault?.delayMs));
      }
      const link = fault?.loopLink ? { link: `<${api}${req.url}>; rel="next"` } : {};
      res.writeHead(status, {
        "content-type": text?.type ?? "application/json; charset=utf-8",
        ...headers,
        ...fault?.headers,
        ...link,
      });
      res.end(fault?.raw ?? text?.body ?? (body === undefined ? "" : JSON.stringify(body)));
    };
    const refuse = (status: number, message: string) =>
      send({ status, body: { message, documentation_url: DOCS, status: String(status) } });

    // codeload, where an archive's redirect leads: its URL is the credential.
    if (url.pathname.startsWith(CODELOAD)) {
      const archive = method === "GET" ? tarball(repositories, url.pathname) : undefined;
      if (!archive) return refuse(404, "Not Found");
      res.writeHead(200, { "content-type": "application/x-gzip", "content-length": archive.length });
      return void res.end(archive);
    }
    // GitHub takes a token as `Bearer` or as `token` (Octokit's way).
    const given = /^(?:Bearer|token) (.*)$/.exec(req.headers.authorization ?? "")?.[1];
    const who = actorOf(given, token);
    if (given !== undefined && !who) return refuse(401, "Bad credentials");
    const matched = judge.match(method, url.pathname);
    if (!matched) {
      violations.push(`${call}: GitHub has no such operation`);
      return refuse(404, "Not Found");
    }
    // Without a token, only public repositories' actions are read.
    const anonymous = !(matched.operationId in actionRepositoryRoutes([]));
    if (!who && anonymous) return refuse(401, "Requires authentication");
    const { owner, repo } = matched.params;
    const actionRepo = actionRepository(repositories, owner, repo, who !== undefined) !== undefined;
    if (owner !== undefined && (owner !== "acme" || repo !== "shop") && !actionRepo && anonymous)
      return refuse(404, "Not Found");
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      violations.push(`${call}: the body is not JSON`);
      return refuse(400, "Problems parsing JSON");
    }
    if (given === READ_ONLY_TOKEN && method !== "GET")
      return refuse(403, "Resource not accessible by integration");
    const problems = judge.checkRequest(method, matched, url.searchParams, body);
    if (problems.length > 0) {
      violations.push(`${call} (${matched.operationId}): ${problems.join("; ")}`);
      return send({
        status: 422,
        body: {
          message: `Invalid request.\n\n${problems.join("\n")}`,
          documentation_url: DOCS,
          status: "422",
        },
      });
    }
    fault = faults.find(
      (f) =>
        f.operationId === matched.operationId &&
        Object.entries(f.when ?? {}).every(([k, v]) => (body as Record<string, unknown>)?.[k] === v),
    );
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      if (fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
      if (fault.status !== undefined && !fault.after)
        return refuse(fault.status, fault.message ?? `status ${fault.status}`);
    }
    const route = routes[matched.operationId];
    if (!route) {
      violations.push(`${call}: the stand-in does not answer ${matched.operationId}`);
      return refuse(501, "Not Implemented by the stand-in");
    }
    const context: Context = {
      state,
      api,
      repoApi: `${api}/repos/acme/shop`,
      actor: who?.actor ?? NOBODY,
      installation: who?.installation ?? false,
      authorized: who !== undefined,
      nextId: () => nextId++,
      page: (items) => page(items, url, api),
    };
    let answer: Answer;
    try {
      answer = route(
        { params: matched.params, query: url.searchParams, headers: req.headers, body },
        context,
      );
    } catch (error) {
      violations.push(`${call}: the stand-in failed: ${(error as Error).message}`);
      return refuse(500, "Server Error");
    }
    // An answer in another media type (the SHA) is described in the operation's text, not its schema.
    if (answer.text === undefined)
      for (const problem of judge.checkResponse(method, matched, answer.status, answer.body))
        violations.push(`${call}: the stand-in's ${problem}`);
    if (fault?.after && fault.status !== undefined)
      return refuse(fault.status, fault.message ?? `status ${fault.status}`);
    send(answer);
  });
  // As the emulator's (IDLE_CONNECTION_MS): the client closes an idle connection, never the server under it.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: api,
    calls,
    violations,
    fail: (fault: Fault) => void faults.push({ ...fault }),
    heal: () => void faults.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

/** One page of a list, as GitHub pages it: `per_page` (30, at most 100), `page`, and a `Link` header. */
function page(items: unknown[], url: URL, api: string): Answer {
  const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? "30"));
  const number = Number(url.searchParams.get("page") ?? "1");
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const at = (n: number) => {
    const next = new URL(url.pathname + url.search, api);
    next.searchParams.set("page", String(n));
    return next.toString();
  };
  const links = [
    ...(number < last ? [`<${at(number + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`] : []),
    ...(number > 1 ? [`<${at(1)}>; rel="first"`, `<${at(number - 1)}>; rel="prev"`] : []),
  ];
  return {
    status: 200,
    body: items.slice((number - 1) * perPage, number * perPage),
    ...(links.length > 0 ? { headers: { link: links.join(", ") } } : {}),
  };
}
