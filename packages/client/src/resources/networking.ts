import { z } from "zod";
import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import { type SubdomainPath, subdomainParam, subdomainPathListResponse } from "../schemas/networking.js";
import { type CursorListQuery, cursorListQuery } from "../schemas/shared.js";

const params = z.strictObject({ domain: z.string().min(1), subdomain: subdomainParam() });

export class Networking {
  constructor(private readonly core: Core) {}

  async listSubdomainPaths(
    domain: string,
    subdomain: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): Promise<Page<SubdomainPath>> {
    const at = path`/v1/domains/${domain}/subdomains/${subdomain}/paths`;
    this.core.check(params, { domain, subdomain }, "GET", at, "path");
    const q = this.core.check(cursorListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: subdomainPathListResponse },
      options,
    );
    return { items: res.data.paths, pagination: res.pagination };
  }

  iterateSubdomainPaths(
    domain: string,
    subdomain: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ) {
    return iterateItems(
      (q) => this.listSubdomainPaths(domain, subdomain, q, options),
      query,
      this.core.walk(path`/v1/domains/${domain}/subdomains/${subdomain}/paths`, options),
    );
  }
}
