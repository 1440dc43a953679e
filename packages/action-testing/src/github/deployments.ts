import {
  type Deployment,
  type DeploymentState,
  deploymentObject,
  latestState,
  statusObject,
} from "./objects.js";
import { type Context, DOCS, type Route } from "./routes.js";

// Deployments and their statuses as GitHub's docs describe them, with what catches deploy steps
// out: the commit's pending checks (409 without `required_contexts: []`), a branch name merged
// with the default branch (`auto_merge`), the 140-character description, and `auto_inactive`
// reaching only non-production, non-transient environments.

/** The check every commit of a running workflow has: the workflow's own, still pending. */
const PENDING_CHECK = { context: "deploy", state: "pending" };
const DESCRIPTION_MAX = 140;
const SHA = /^[0-9a-f]{40}$/;

const DEPLOYMENT_DOCS = `${DOCS}/deployments/deployments#create-a-deployment`;
const STATUS_DOCS = `${DOCS}/deployments/statuses#create-a-deployment-status`;

const find = (ctx: Context, id: string) => ctx.state.deployments.find((d) => d.id === Number(id));
const notFound = { status: 404, body: { message: "Not Found", documentation_url: DOCS } };

export const deploymentRoutes: Record<string, Route> = {
  "repos/create-deployment": ({ body }, ctx) => {
    const ref = String(body.ref);
    const branchHead = ctx.state.branches[ref];
    // GitHub merges the default branch into a branch it is asked to deploy, unless told not to.
    if (branchHead !== undefined && body.auto_merge !== false && ref !== "main")
      return { status: 202, body: { message: `Auto-merged main into ${ref} on deployment.` } };
    const sha = SHA.test(ref) ? ref : branchHead;
    if (sha === undefined)
      return {
        status: 422,
        body: { message: `No ref found for: ${ref}`, documentation_url: DEPLOYMENT_DOCS, status: "422" },
      };
    const required: string[] | undefined = body.required_contexts;
    if (required === undefined || required.includes(PENDING_CHECK.context))
      return {
        status: 409,
        body: {
          message: `Conflict: Commit status checks failed for ${ref}.`,
          errors: [
            {
              contexts: [PENDING_CHECK],
              resource: "Deployment",
              field: "required_contexts",
              code: "invalid",
            },
          ],
          documentation_url: DEPLOYMENT_DOCS,
          status: "409",
        },
      };
    const environment = body.environment ?? "production";
    const deployment: Deployment = {
      id: ctx.nextId(),
      sha,
      ref,
      task: body.task ?? "deploy",
      environment,
      description: body.description === undefined ? "" : body.description,
      production: body.production_environment ?? environment === "production",
      transient: body.transient_environment ?? false,
      payload: body.payload ?? "",
      statuses: [],
    };
    ctx.state.deployments.push(deployment);
    return { status: 201, body: deploymentObject(deployment, ctx.repoApi, ctx.actor, ctx.api) };
  },

  "repos/list-deployments": ({ query }, ctx) => {
    const matches = (d: Deployment) =>
      (["sha", "ref", "task", "environment"] as const).every((field) => {
        const wanted = query.get(field);
        return wanted === null || d[field] === wanted;
      });
    return ctx.page(
      ctx.state.deployments
        .filter(matches)
        .reverse()
        .map((d) => deploymentObject(d, ctx.repoApi, ctx.actor, ctx.api)),
    );
  },

  "repos/list-deployment-statuses": ({ params }, ctx) => {
    const deployment = find(ctx, params.deployment_id ?? "");
    if (!deployment) return notFound;
    return ctx.page(
      [...deployment.statuses]
        .reverse()
        .map((s) => statusObject(s, deployment, ctx.repoApi, ctx.actor, ctx.api)),
    );
  },

  "repos/create-deployment-status": ({ params, body }, ctx) => {
    const deployment = find(ctx, params.deployment_id ?? "");
    if (!deployment) return notFound;
    const description: string = body.description ?? "";
    if ([...description].length > DESCRIPTION_MAX)
      return {
        status: 422,
        body: {
          message: "Validation Failed",
          errors: [
            {
              resource: "DeploymentStatus",
              code: "custom",
              field: "description",
              message: `description is too long (maximum is ${DESCRIPTION_MAX} characters)`,
            },
          ],
          documentation_url: STATUS_DOCS,
        },
      };
    const state: DeploymentState = body.state;
    const status = {
      id: ctx.nextId(),
      state,
      description,
      logUrl: body.log_url ?? body.target_url ?? "",
      environmentUrl: body.environment_url ?? "",
      ...(body.auto_inactive !== undefined ? { autoInactive: body.auto_inactive } : {}),
    };
    deployment.statuses.push(status);
    // auto_inactive: earlier successful deployments of the environment become inactive, but only
    // those neither production nor transient.
    const superseded = (earlier: Deployment) =>
      earlier.id < deployment.id &&
      earlier.environment === deployment.environment &&
      !earlier.production &&
      !earlier.transient &&
      latestState(earlier) === "success";
    if (state === "success" && body.auto_inactive !== false)
      for (const earlier of ctx.state.deployments.filter(superseded))
        earlier.statuses.push({
          id: ctx.nextId(),
          state: "inactive",
          description: "",
          logUrl: status.logUrl,
          environmentUrl: "",
          byGitHub: true,
        });
    return { status: 201, body: statusObject(status, deployment, ctx.repoApi, ctx.actor, ctx.api) };
  },
};
