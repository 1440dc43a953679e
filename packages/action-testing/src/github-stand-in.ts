import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A small stand-in for the GitHub REST API: issue comments and issues of acme/shop (the repository
// runBundle's runner names), in memory, over real HTTP.

/** Who wrote a comment or an issue, as GitHub answers it. */
export interface Author {
  login: string;
  type: "Bot" | "User";
}

/** What the workflow token writes as. */
export const WORKFLOW_BOT: Author = { login: "github-actions[bot]", type: "Bot" };

export interface StandIn {
  url: string;
  comments: Array<{ id: number; issue: number; body: string; user: Author }>;
  issues: Array<{ number: number; title: string; body: string; labels: string[]; user: Author }>;
  calls: string[];
  close(): Promise<void>;
}

/** A token that reads but may not write, as a workflow token without `issues: write` is. */
export const READ_ONLY_TOKEN = "ghs_stand_in_read_only_0123456789";

export async function startGitHubStandIn(token: string): Promise<StandIn> {
  const state: Omit<StandIn, "url" | "close"> = { comments: [], issues: [], calls: [] };
  let nextId = 100;
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    const url = new URL(req.url ?? "/", "http://github");
    state.calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    // GitHub takes a token as `Bearer` or as `token` (Octokit's way).
    const given = /^(?:Bearer|token) (.*)$/.exec(req.headers.authorization ?? "")?.[1];
    if (given === READ_ONLY_TOKEN && req.method !== "GET")
      return send(403, { message: "Resource not accessible by integration", status: "403" });
    if (given !== token && given !== READ_ONLY_TOKEN) return send(401, { message: "Bad credentials" });
    // An installation token (the workflow's) may not read the user it acts as.
    if (url.pathname === "/user" && req.method === "GET")
      return send(403, { message: "Resource not accessible by integration", status: "403" });
    const page = Number(url.searchParams.get("page") ?? "1");
    const perPage = Number(url.searchParams.get("per_page") ?? "30");
    const slice = <T>(items: T[]) => items.slice((page - 1) * perPage, page * perPage);
    let m = /^\/repos\/acme\/shop\/issues\/(\d+)\/comments$/.exec(url.pathname);
    if (m && req.method === "GET")
      return send(200, slice(state.comments.filter((c) => c.issue === Number(m?.[1]))));
    if (m && req.method === "POST") {
      const comment = { id: nextId++, issue: Number(m[1]), body: body.body, user: WORKFLOW_BOT };
      state.comments.push(comment);
      return send(201, { ...comment, html_url: `https://github.example/c/${comment.id}` });
    }
    m = /^\/repos\/acme\/shop\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (m && req.method === "PATCH") {
      const comment = state.comments.find((c) => c.id === Number(m?.[1]));
      if (!comment) return send(404, { message: "Not Found" });
      comment.body = body.body;
      return send(200, comment);
    }
    if (url.pathname === "/repos/acme/shop/issues" && req.method === "GET") {
      const label = url.searchParams.get("labels");
      return send(200, slice(state.issues.filter((i) => !label || i.labels.includes(label))));
    }
    if (url.pathname === "/repos/acme/shop/issues" && req.method === "POST") {
      const issue = {
        number: nextId++,
        title: body.title,
        body: body.body,
        labels: body.labels ?? [],
        user: WORKFLOW_BOT,
      };
      state.issues.push(issue);
      return send(201, issue);
    }
    m = /^\/repos\/acme\/shop\/issues\/(\d+)$/.exec(url.pathname);
    if (m && req.method === "PATCH") {
      const issue = state.issues.find((i) => i.number === Number(m?.[1]));
      if (!issue) return send(404, { message: "Not Found" });
      issue.body = body.body;
      return send(200, issue);
    }
    send(404, { message: "Not Found" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
