import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { type Team, teamListResponse } from "../schemas/projects.js";
import { type CursorListQuery, cursorListQuery } from "../schemas/shared.js";

/** Teams of the organisation (organisation token); a team's `uid` is the billing `teamId` filter. */
export class Teams {
  constructor(private readonly core: Core) {}

  async list(query: CursorListQuery = {}, options?: CallOptions): Promise<Page<Team>> {
    const q = this.core.check(cursorListQuery, query, "GET", "/v1/teams", "query");
    const res = await this.core.call(
      { method: "GET", path: "/v1/teams", query: q, response: teamListResponse, twin: false },
      options,
    );
    return { items: res.data.teams, pagination: res.pagination };
  }

  /** Every team, across pages. */
  iterate(query: CursorListQuery = {}, options?: CallOptions): AsyncGenerator<Team> {
    return iterateItems((q) => this.list(q, options), query, this.core.walk("/v1/teams", options));
  }
}
