import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import {
  type CreateNotificationBody,
  createNotificationBody,
  type NotificationIntegration,
  notificationIntegrationResponse,
  type RegistryCredential,
  registryCredentialListResponse,
} from "../schemas/integrations.js";
import { type CursorListQuery, cursorListQuery } from "../schemas/shared.js";

export class Integrations {
  constructor(private readonly core: Core) {}

  /** Creates a notification integration. Never sent twice after an ambiguous failure. */
  async createNotification(
    body: CreateNotificationBody,
    options?: CallOptions,
  ): Promise<NotificationIntegration> {
    const at = "/v1/integrations/notifications";
    const checked = this.core.check(createNotificationBody, body, "POST", at, "body");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        body: checked,
        safety: "start-work",
        checkHint: "the account's notification integrations",
        response: notificationIntegrationResponse,
      },
      options,
    );
    return res.data;
  }

  async listRegistries(
    query: CursorListQuery = {},
    options?: CallOptions,
  ): Promise<Page<RegistryCredential>> {
    const at = "/v1/integrations/registries";
    const q = this.core.check(cursorListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: registryCredentialListResponse },
      options,
    );
    return { items: res.data.credentials, pagination: res.pagination };
  }

  iterateRegistries(query: CursorListQuery = {}, options?: CallOptions): AsyncGenerator<RegistryCredential> {
    return iterateItems(
      (q) => this.listRegistries(q, options),
      query,
      this.core.walk("/v1/integrations/registries", options),
    );
  }
}
