import { creditBalance, invoiceDetail, invoiceList } from "../billing/invoices.js";
import { ledgerOf } from "../billing/ledger.js";
import type { BillingScope } from "../billing/scope.js";
import { usageHour, usageList } from "../billing/usage.js";
import { actingTeam, type Context, get, type Route } from "../router.js";
import { drillDownQuery, invoiceListQuery, usageListQuery } from "../rules/billing.js";
import { checkQuery } from "../validate.js";

// Billing, read-only (spec 2.2, 4.1, 5.4).

/** Who reads billing, and what they see: the acting team's customer and currency (spec 5.4). */
function billingScope(ctx: Context): BillingScope {
  const teamId = actingTeam(ctx);
  const team = ctx.world.teams.find((t) => t.id === teamId);
  if (!team) return { customer: "organisation", currency: "USD", team: undefined, teamScoped: false };
  if (team.billing === "own") return { customer: team.id, currency: "EUR", team, teamScoped: false };
  return { customer: "organisation", currency: "USD", team, teamScoped: true };
}

export const billingRoutes: Route[] = [
  get("/v1/billing/invoices", (ctx) =>
    invoiceList(
      ledgerOf(ctx.world),
      billingScope(ctx),
      checkQuery(invoiceListQuery, ctx.query),
      ctx.now,
      ctx.settings.pageShape,
    ),
  ),
  get("/v1/billing/invoices/:invoiceId", (ctx) =>
    invoiceDetail(
      ledgerOf(ctx.world),
      billingScope(ctx),
      ctx.params.invoiceId ?? "",
      checkQuery(drillDownQuery, ctx.query),
      ctx.now,
      ctx.settings.pageShape,
    ),
  ),
  get("/v1/billing/usage", (ctx) =>
    usageList(
      ledgerOf(ctx.world),
      billingScope(ctx),
      checkQuery(usageListQuery, ctx.query),
      ctx.now,
      ctx.settings.pageShape,
    ),
  ),
  get("/v1/billing/usage/:timestamp", (ctx) =>
    usageHour(
      ledgerOf(ctx.world),
      billingScope(ctx),
      ctx.params.timestamp ?? "",
      checkQuery(drillDownQuery, ctx.query),
      ctx.now,
      ctx.settings.pageShape,
    ),
  ),
  get("/v1/billing/credit-balance", (ctx) => creditBalance(ledgerOf(ctx.world), billingScope(ctx), ctx.now)),
];
