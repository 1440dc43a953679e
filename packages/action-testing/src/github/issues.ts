import { commentObject, issueObject, publicUserObject } from "./objects.js";
import type { Route } from "./routes.js";

// Issues and their comments (the cost report's comment and issue), and who the token is.

export const issueRoutes: Record<string, Route> = {
  // An installation token (the workflow's or an App's) may not read the user it acts as.
  "users/get-authenticated": (_, ctx) =>
    ctx.installation
      ? {
          status: 403,
          body: {
            message: "Resource not accessible by integration",
            documentation_url: "https://docs.github.com/rest/users/users#get-the-authenticated-user",
            status: "403",
          },
        }
      : { status: 200, body: publicUserObject(ctx.actor, ctx.api) },
  "issues/list-comments": ({ params }, ctx) =>
    ctx.page(
      ctx.state.comments
        .filter((c) => c.issue === Number(params.issue_number))
        .map((c) => commentObject(c, ctx.repoApi, ctx.api)),
    ),
  "issues/create-comment": ({ params, body }, ctx) => {
    const comment = {
      id: ctx.nextId(),
      issue: Number(params.issue_number),
      body: body.body,
      user: ctx.actor,
    };
    ctx.state.comments.push(comment);
    return { status: 201, body: commentObject(comment, ctx.repoApi, ctx.api) };
  },
  "issues/update-comment": ({ params, body }, ctx) => {
    const comment = ctx.state.comments.find((c) => c.id === Number(params.comment_id));
    if (!comment) return { status: 404, body: { message: "Not Found" } };
    comment.body = body.body;
    return { status: 200, body: commentObject(comment, ctx.repoApi, ctx.api) };
  },
  "issues/list-for-repo": ({ query }, ctx) => {
    const label = query.get("labels");
    return ctx.page(
      ctx.state.issues
        .filter((i) => !label || i.labels.includes(label))
        .map((i) => issueObject(i, ctx.repoApi, ctx.api)),
    );
  },
  "issues/create": ({ body }, ctx) => {
    const issue = {
      number: ctx.nextId(),
      title: String(body.title),
      body: body.body ?? "",
      labels: (body.labels ?? []).map(String),
      user: ctx.actor,
    };
    ctx.state.issues.push(issue);
    return { status: 201, body: issueObject(issue, ctx.repoApi, ctx.api) };
  },
  "issues/update": ({ params, body }, ctx) => {
    const issue = ctx.state.issues.find((i) => i.number === Number(params.issue_number));
    if (!issue) return { status: 404, body: { message: "Not Found" } };
    if (body.body !== undefined) issue.body = body.body;
    return { status: 200, body: issueObject(issue, ctx.repoApi, ctx.api) };
  },
};
