import { ApiFailure } from "../http.js";
import { nextId } from "../model/world.js";
import { notificationView } from "../notifications/store.js";
import { paginate } from "../paginate.js";
import { get, post, type Route, requireWrite } from "../router.js";
import { createNotificationBody } from "../rules/integrations.js";
import { checkBody } from "../validate.js";

// Notification integrations and registry credentials (spec 2.10, 2.11, 4.10).

const registries = (seededAt: number) => {
  const at = new Date(seededAt - 40 * 86_400_000).toISOString();
  return [
    {
      id: "ghcr-main",
      name: "ghcr main",
      provider: "github",
      registryUrl: "ghcr.io",
      credentials: { scope: { pull: true, push: false } },
    },
    {
      id: "ecr-prod",
      name: "ecr prod",
      provider: "ecr",
      registryUrl: "123456789012.dkr.ecr.eu-west-1.amazonaws.com",
      aws: { region: "eu-west-1" },
      credentials: { scope: { pull: true, push: true } },
    },
    {
      id: "hub-mirror",
      name: "hub mirror",
      provider: "dockerhub",
      credentials: { scope: { pull: true, push: false } },
    },
  ].map((r, i) => ({
    ...r,
    registryCredentialRefresh:
      i === 1
        ? {
            status: "retrying",
            failureCount: 2,
            retryDelay: 60_000,
            lastFailureAt: at,
            nextAttemptAt: new Date(seededAt + 60_000).toISOString(),
            error: { type: "auth", message: "token expired", providerCode: "ExpiredToken" },
          }
        : { status: "healthy", failureCount: 0, retryDelay: 0 },
    createdAt: at,
    updatedAt: at,
  }));
};

export const integrationRoutes: Route[] = [
  post("/v1/integrations/notifications", (ctx) => {
    requireWrite(ctx, "Account > Observability > Notifications > Create");
    const body = checkBody(createNotificationBody, ctx.body);
    if (ctx.world.notifications.some((n) => n.body.name === body.name))
      throw new ApiFailure(
        409,
        `a notification integration named ${JSON.stringify(body.name)} already exists`,
      );
    const notification = {
      id: nextId(ctx.world, "ntf-"),
      body,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      status: { disabled: false, reason: false, timeOfFirstFailedRequest: null, numberOfFailedRequests: 0 },
      delivered: 0,
    };
    ctx.world.notifications.push(notification);
    return { data: notificationView(notification) };
  }),
  get("/v1/integrations/registries", (ctx) => {
    const { items, pagination } = paginate(registries(ctx.world.seededAt), ctx.query, ctx.settings.pageShape);
    return { data: { credentials: items }, pagination };
  }),
];
