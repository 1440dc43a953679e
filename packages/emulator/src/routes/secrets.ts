import { ApiFailure } from "../http.js";
import type { Secret } from "../model/config-records.js";
import { nextId } from "../model/world.js";
import { findIn, post, type Route, requireWrite, visibleProject } from "../router.js";
import { createSecretBody, linkAddonBody } from "../rules/secrets.js";
import { checkBody } from "../validate.js";

// Project secret groups and addon links (spec 2.3, 4.3). Secret values are stored, never answered.

/** A secret group as the API answers it: the variable names, never their values. */
function secretView({ projectId: _p, links: _l, secrets, ...rest }: Secret) {
  const hidden = (map: Record<string, unknown> | undefined) =>
    map === undefined ? undefined : Object.fromEntries(Object.keys(map).map((k) => [k, "********"]));
  // Files and mounts are `{ data, encoding }` objects (spec 2.3): the shape kept, the data hidden.
  const hiddenFiles = (map: Record<string, { encoding: string }> | undefined) =>
    map === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(map).map(([k, file]) => [k, { data: "********", encoding: file.encoding }]),
        );
  return {
    ...rest,
    ...(secrets
      ? {
          secrets: {
            variables: hidden(secrets.variables),
            files: hiddenFiles(secrets.files),
            dockerSecretMounts: hiddenFiles(secrets.dockerSecretMounts),
          },
        }
      : {}),
  };
}

export const secretRoutes: Route[] = [
  post("/v1/projects/:projectId/secrets", (ctx) => {
    const project = visibleProject(ctx);
    requireWrite(ctx, "Project > Secrets > SecretGroups > Create");
    const body = checkBody(createSecretBody, ctx.body);
    if (ctx.world.secrets.some((s) => s.projectId === project.id && s.name === body.name))
      throw new ApiFailure(
        409,
        `a secret group named ${JSON.stringify(body.name)} already exists in ${project.id}`,
      );
    const now = new Date(ctx.now).toISOString();
    const slug = body.name.toLowerCase().replace(/\s+/g, "-");
    const secret: Secret = {
      ...body,
      projectId: project.id,
      id: slug.length >= 3 ? slug : nextId(ctx.world, "secret-"),
      createdAt: now,
      updatedAt: now,
      links: {},
    };
    ctx.world.secrets.push(secret);
    return { data: secretView(secret) };
  }),
  post("/v1/projects/:projectId/secrets/:secretId/addons/:addonId", (ctx) => {
    const project = visibleProject(ctx);
    requireWrite(ctx, "Project > Secrets > SecretGroups > Update");
    const body = checkBody(linkAddonBody, ctx.body);
    const secret = findIn(ctx.world.secrets, project.id, ctx.params.secretId, "secret group");
    const addon = findIn(ctx.world.addons, project.id, ctx.params.addonId, "addon");
    const keys = body.keys.map((k) => ({
      keyName: k.keyName,
      aliases: k.aliases ?? [],
      defaultKey: `${addon.id.toUpperCase()}_${k.keyName.toUpperCase()}`,
    }));
    secret.links[addon.id] = keys;
    secret.updatedAt = new Date(ctx.now).toISOString();
    return { data: { keys } };
  }),
];
