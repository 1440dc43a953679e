import { ApiFailure } from "../http.js";
import type { Template } from "../model/world.js";
import { paginate } from "../paginate.js";
import { type Context, get, post, type Route, requireWrite } from "../router.js";
import { runTemplateBody, templateRunListQuery } from "../rules/work.js";
import { checkBody, checkQuery } from "../validate.js";
import { abortTemplateRun, startTemplateRun, templateRunView } from "../work/template-runs.js";

// Template runs: spec 2.5, 3.4, 4.8 and the template-run reads and abort of beyond-the-seed §1.

function template(ctx: Context): Template {
  const found = ctx.world.templates.find((t) => t.id === ctx.params.templateId);
  if (!found) throw new ApiFailure(404, `template ${ctx.params.templateId} not found`);
  return found;
}

function runOf(ctx: Context, t: Template) {
  const record = ctx.world.templateRuns.find((r) => r.templateId === t.id && r.id === ctx.params.runId);
  if (!record) throw new ApiFailure(404, `run ${ctx.params.runId} of template ${t.id} not found`);
  return record;
}

export const templateRoutes: Route[] = [
  post("/v1/templates/:templateId/runs", (ctx) => {
    const t = template(ctx);
    requireWrite(ctx, "Account > Templates > General > Run");
    const body = checkBody(runTemplateBody, ctx.body);
    const outcome = ctx.outcomes.take("templateRun", t.outcomes);
    // A template reading an argument the run did not give fails, as `${args.name}` cannot resolve.
    // Own members only: an argument named `constructor` or `toString` is one like any other.
    const missing = (t.arguments ?? []).filter((name) => !Object.hasOwn(body.arguments, name));
    const record = startTemplateRun(
      ctx.world,
      t,
      body.arguments,
      ctx.now,
      missing.length > 0 ? { ...outcome, succeed: false, status: "failure" } : outcome,
      missing.length > 0
        ? `the template reads ${missing.map((name) => `\${args.${name}}`).join(", ")}, which the run was not given: add ${missing.join(", ")} to its arguments`
        : undefined,
    );
    return { data: templateRunView(record, t, ctx.now) };
  }),
  get("/v1/templates/:templateId/runs", (ctx) => {
    const t = template(ctx);
    const q = checkQuery(templateRunListQuery, ctx.query);
    const runs = ctx.world.templateRuns
      .filter((r) => r.templateId === t.id)
      .reverse()
      .map((r) => templateRunView(r, t, ctx.now))
      .filter(
        (r) =>
          (q.status === undefined || r.status === q.status) &&
          (q.concluded === undefined || r.concluded === q.concluded),
      );
    const { items, pagination } = paginate(runs, ctx.query, ctx.settings.pageShape, templateRunListQuery);
    // The live list carries summaries, less than a run's own read: no gitops, spec or arguments,
    // but every member that names and places the run (the vendor's client lists by `name` and
    // `apiVersion`).
    const summaries = items.map(
      ({ gitops: _gitops, spec: _spec, arguments: _arguments, ...summary }) => summary,
    );
    return { data: { templateRuns: summaries }, pagination };
  }),
  get("/v1/templates/:templateId/runs/:runId", (ctx) => {
    const t = template(ctx);
    return { data: templateRunView(runOf(ctx, t), t, ctx.now) };
  }),
  post("/v1/templates/:templateId/runs/:runId/abort", (ctx) => {
    const t = template(ctx);
    const record = runOf(ctx, t);
    requireWrite(ctx, "Account > Templates > General > Run");
    if (!abortTemplateRun(record, ctx.now))
      throw new ApiFailure(409, `run ${record.id} has already concluded`);
    return { data: templateRunView(record, t, ctx.now) };
  }),
];
