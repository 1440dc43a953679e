import { ApiFailure } from "../http.js";
import { paginate } from "../paginate.js";
import { get, type Route } from "../router.js";
import { subdomainParam } from "../rules/integrations.js";
import { checkParam } from "../validate.js";

// Subdomain paths (spec 2.7, 4.9).

export const networkingRoutes: Route[] = [
  get("/v1/domains/:domain/subdomains/:subdomain/paths", (ctx) => {
    const name = checkParam(subdomainParam, ctx.params.subdomain, "subdomain");
    const domain = ctx.world.domains.find((d) => d.domain === ctx.params.domain);
    if (!domain) throw new ApiFailure(404, `domain ${ctx.params.domain} not found`);
    const subdomain = domain.subdomains.find((s) => s.name === name);
    if (!subdomain) throw new ApiFailure(404, `subdomain ${name} of ${domain.domain} not found`);
    const { items, pagination } = paginate(subdomain.paths, ctx.query, ctx.settings.pageShape);
    return { data: { paths: items }, pagination };
  }),
];
