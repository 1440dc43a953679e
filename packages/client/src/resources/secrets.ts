import type { CallOptions, Core } from "../core/core.js";
import { path } from "../core/path.js";
import {
  type CreateSecretBody,
  createSecretBody,
  type LinkAddonBody,
  linkAddonBody,
  linkAddonResponse,
  type SecretGroup,
  secretGroupResponse,
} from "../schemas/secrets.js";

export class Secrets {
  constructor(private readonly core: Core) {}

  /** Creates a secret group. Never sent twice: after an ambiguous failure the error says the outcome is unknown. */
  async create(projectId: string, body: CreateSecretBody, options?: CallOptions): Promise<SecretGroup> {
    const at = path`/v1/projects/${projectId}/secrets`;
    const checked = this.core.check(createSecretBody, body, "POST", at, "body");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        body: checked,
        safety: "start-work",
        checkHint: "the project's secret groups",
        response: secretGroupResponse,
      },
      options,
    );
    return res.data;
  }

  /** Links an addon to a secret group, or edits the link (the same request twice has one effect). */
  async linkAddon(
    projectId: string,
    secretId: string,
    addonId: string,
    body: LinkAddonBody,
    options?: CallOptions,
  ) {
    const at = path`/v1/projects/${projectId}/secrets/${secretId}/addons/${addonId}`;
    const checked = this.core.check(linkAddonBody, body, "POST", at, "body");
    return (
      await this.core.call(
        { method: "POST", path: at, body: checked, safety: "idempotent", response: linkAddonResponse },
        options,
      )
    ).data.keys;
  }
}
