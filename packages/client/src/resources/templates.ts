import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import {
  type RunTemplateBody,
  runTemplateBody,
  type TemplateRun,
  type TemplateRunListQuery,
  type TemplateRunSummary,
  templateRunListQuery,
  templateRunListResponse,
  templateRunResponse,
} from "../schemas/templates.js";
import { templateRunConclusion } from "../waiting/conclusions.js";
import type { WaitOptions } from "../waiting/poll.js";

export class Templates {
  constructor(private readonly core: Core) {}

  /** Starts a template run. Never sent twice: after an ambiguous failure the error says the outcome is unknown. */
  async run(
    templateId: string,
    body: RunTemplateBody = { arguments: {} },
    options?: CallOptions,
  ): Promise<TemplateRun> {
    const at = path`/v1/templates/${templateId}/runs`;
    const checked = this.core.check(runTemplateBody, body, "POST", at, "body");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        body: checked,
        safety: "start-work",
        checkHint: `the template's runs (GET ${at})`,
        response: templateRunResponse,
      },
      options,
    );
    return res.data;
  }

  async getRun(templateId: string, runId: string, options?: CallOptions): Promise<TemplateRun> {
    const at = path`/v1/templates/${templateId}/runs/${runId}`;
    return (await this.core.call({ method: "GET", path: at, response: templateRunResponse }, options)).data;
  }

  async listRuns(
    templateId: string,
    query: TemplateRunListQuery = {},
    options?: CallOptions,
  ): Promise<Page<TemplateRunSummary>> {
    const at = path`/v1/templates/${templateId}/runs`;
    const q = this.core.check(templateRunListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: templateRunListResponse },
      options,
    );
    return { items: res.data.templateRuns, pagination: res.pagination };
  }

  iterateRuns(
    templateId: string,
    query: TemplateRunListQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<TemplateRunSummary> {
    return iterateItems(
      (q) => this.listRuns(templateId, q, options),
      query,
      this.core.walk(path`/v1/templates/${templateId}/runs`, options),
    );
  }

  async abortRun(templateId: string, runId: string, options?: CallOptions): Promise<TemplateRun> {
    const at = path`/v1/templates/${templateId}/runs/${runId}/abort`;
    return (
      await this.core.call(
        { method: "POST", path: at, safety: "idempotent", response: templateRunResponse },
        options,
      )
    ).data;
  }

  /** Polls the run until `concluded`; only status `success` is a passing outcome. */
  waitForRun(
    templateId: string,
    runId: string,
    options: WaitOptions<TemplateRun> & CallOptions = {},
  ): Promise<TemplateRun> {
    const at = path`/v1/templates/${templateId}/runs/${runId}`;
    return this.core.waitUntil(
      `template run ${runId}`,
      at,
      (o) => this.getRun(templateId, runId, o),
      templateRunConclusion,
      options,
    );
  }
}
