import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import { type Pipeline, type Project, pipelineResponse, projectListResponse } from "../schemas/projects.js";
import { type CursorListQuery, cursorListQuery } from "../schemas/shared.js";

export class Projects {
  constructor(private readonly core: Core) {}

  async list(query: CursorListQuery = {}, options?: CallOptions): Promise<Page<Project>> {
    const q = this.core.check(cursorListQuery, query, "GET", "/v1/projects", "query");
    const res = await this.core.call(
      { method: "GET", path: "/v1/projects", query: q, response: projectListResponse },
      options,
    );
    return { items: res.data.projects, pagination: res.pagination };
  }

  /** Every project, across pages. */
  iterate(query: CursorListQuery = {}, options?: CallOptions): AsyncGenerator<Project> {
    return iterateItems((q) => this.list(q, options), query, this.core.walk("/v1/projects", options));
  }

  async getPipeline(projectId: string, pipelineId: string, options?: CallOptions): Promise<Pipeline> {
    const at = path`/v1/projects/${projectId}/pipelines/${pipelineId}`;
    return (await this.core.call({ method: "GET", path: at, response: pipelineResponse }, options)).data;
  }
}
