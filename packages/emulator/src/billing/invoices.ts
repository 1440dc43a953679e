import { ApiFailure } from "../http.js";
import { cursorPage } from "../paginate.js";
import type { DrillDownQuery, InvoiceListQuery } from "../rules/billing.js";
import type { PageShape } from "../settings.js";
import { customerCategories, Sums, scopeMeters } from "./breakdown.js";
import { HOUR_MS, type Ledger } from "./ledger.js";
import { cents, priced, priceMicros } from "./money.js";
import { type BillingScope, scopeObject } from "./scope.js";
import { currentHour, drilledPaas } from "./usage.js";

// Monthly invoices (spec 2.2, 3.1, 4.1): one per whole month of history, finalized; the current
// month is a draft the list never returns.

interface InvoiceMonth {
  id: string;
  fromHour: number;
  toHour: number;
  /** Where metered usage ends: the month's end, or the current hour for the draft. */
  usageToHour: number;
  status: string;
}

/** Non-usage charges, discount and tax of a customer (names ours: the spec does not show them). */
const TERMS: Record<string, { plan: number; discountRate: number; taxRate: number }> = {
  organisation: { plan: 49, discountRate: 0.05, taxRate: 0 },
};
const OWN_BILLING_TERMS = { plan: 0, discountRate: 0, taxRate: 0.19 };

function months(ledger: Ledger, customer: string, now: number): InvoiceMonth[] {
  const out: InvoiceMonth[] = [];
  const endHour = currentHour(now);
  for (let h = ledger.historyStartHour; h < endHour; ) {
    const d = new Date(h * HOUR_MS);
    const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / HOUR_MS;
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    out.push({
      id: `inv-${customer}-${month}`,
      fromHour: h,
      toHour: next,
      usageToHour: Math.min(next, endHour),
      status: "paid",
    });
    h = next;
  }
  const at = (fromEnd: number) => out[out.length - fromEnd];
  const draft = at(1);
  if (draft && draft.toHour > endHour) draft.status = "draft";
  const lastFinal = out.filter((i) => i.status !== "draft");
  const open = lastFinal.at(-1);
  if (open) open.status = "open";
  if (customer !== "organisation") {
    const failed = lastFinal.at(-2);
    if (failed) failed.status = "payment_failed";
  } else {
    const voided = lastFinal.at(-6);
    if (voided) voided.status = "void";
  }
  return out;
}

/** An invoice's amounts for a reader: the customer's, or a team's share of PaaS for a team scope. */
function invoiceFields(ledger: Ledger, scope: BillingScope, inv: InvoiceMonth) {
  const sums = new Sums(ledger, inv.fromHour, inv.usageToHour);
  const paasAmounts = sums.total(scopeMeters(ledger, scope));
  const head = {
    id: inv.id,
    status: inv.status,
    currency: scope.currency,
    periodStart: new Date(inv.fromHour * HOUR_MS).toISOString(),
    periodEnd: new Date(inv.toHour * HOUR_MS).toISOString(),
    ...scopeObject(scope),
  };
  if (scope.teamScoped) {
    const micros = priceMicros(paasAmounts);
    return {
      fields: { ...head, usageTotal: cents(micros), total: cents(micros), paas: priced(paasAmounts) },
      customer: undefined,
    };
  }
  const customer = customerCategories(ledger, scope.customer, inv.fromHour, inv.usageToHour, true);
  const terms = TERMS[scope.customer] ?? OWN_BILLING_TERMS;
  const usageMicros = priceMicros(paasAmounts) + customer.micros;
  const planMicros = terms.plan * 1e6;
  const discountMicros = Math.round(usageMicros * terms.discountRate);
  const taxMicros = Math.round((usageMicros + planMicros - discountMicros) * terms.taxRate);
  return {
    fields: {
      ...head,
      usageTotal: cents(usageMicros),
      nonUsageCharges: terms.plan > 0 ? [{ description: "Platform support plan", amount: terms.plan }] : [],
      discount: cents(discountMicros),
      tax: cents(taxMicros),
      total: cents(usageMicros + planMicros - discountMicros + taxMicros),
      paas: priced(paasAmounts),
    },
    customer,
  };
}

export function invoiceList(
  ledger: Ledger,
  scope: BillingScope,
  q: InvoiceListQuery,
  now: number,
  shape: PageShape,
) {
  const all = months(ledger, scope.customer, now)
    .filter((i) => i.status !== "draft")
    .reverse();
  const size = q.perPage ?? 50;
  const { start, end, pagination } = cursorPage(all.length, q.cursor, size, shape);
  const page = all.slice(start, end);
  return {
    data: {
      invoices: page.map((inv) => {
        const { fields, customer } = invoiceFields(ledger, scope, inv);
        const { clusters: _omit, ...byoc } = customer?.categories.byoc ?? {};
        return { ...fields, ...(customer ? { ...customer.categories, byoc } : {}) };
      }),
    },
    pagination,
  };
}

/** One invoice with a page of its drill-down; the draft of the current month is readable by id. */
export function invoiceDetail(
  ledger: Ledger,
  scope: BillingScope,
  invoiceId: string,
  q: DrillDownQuery,
  now: number,
  shape: PageShape,
) {
  const inv = months(ledger, scope.customer, now).find((i) => i.id === invoiceId);
  if (!inv) throw new ApiFailure(404, `invoice ${invoiceId} not found`);
  const { fields, customer } = invoiceFields(ledger, scope, inv);
  const { paas, pagination } = drilledPaas(ledger, scope, q, inv.fromHour, inv.usageToHour, shape);
  return { data: { ...fields, paas, ...(customer ? customer.categories : {}) }, pagination };
}

export function creditBalance(ledger: Ledger, scope: BillingScope, now: number) {
  if (scope.teamScoped)
    throw new ApiFailure(
      403,
      "a team billed through its organisation has no credit balance of its own: ask with an organisation token",
    );
  const owed = months(ledger, scope.customer, now)
    .filter((i) => i.status === "payment_failed")
    .reduce((sum, inv) => sum + (invoiceFields(ledger, scope, inv).fields.total ?? 0), 0);
  const grants =
    scope.customer === "organisation" ? { available: 200, pending: 50 } : { available: 120, pending: 0 };
  const amount = owed > 0 ? -Math.round(owed * 100) / 100 : 25.5;
  return {
    data: {
      currency: scope.currency,
      // Money owed shows through unpaid invoices and does not reduce what is available.
      total: {
        available: Math.round((grants.available + Math.max(0, amount)) * 100) / 100,
        pending: grants.pending,
      },
      grants,
      customerBalance: { amount },
      lastSyncedAt: new Date(now - 600_000).toISOString(),
    },
  };
}
