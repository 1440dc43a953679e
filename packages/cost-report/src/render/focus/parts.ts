import type { UsageEntry } from "@cwp/client";
import type { FocusValue, SharedPart } from "./columns.js";

// What the rows of the FOCUS dataset share, and how each value is derived from what the platform
// sends (usage-report's README has the same as a table: column, source, rule). The platform sends
// the amounts it bills, without list or contracted prices and without discounts on usage, so the
// four costs of a row are one amount.

const PROVIDER = "Cloud Workload Platform";
const HOUR_MS = 3_600_000;

/** Values shared by many rows, in the order of their part's columns. */
export interface FocusParts<P extends SharedPart = SharedPart> {
  readonly part: P;
  readonly values: readonly FocusValue[];
}
/** One charge period (a usage entry) of the billing account. */
export interface FocusPeriod extends FocusParts<"period"> {
  /** Its length in hours: the quantity of a charge the platform gives none for. */
  readonly hours: number;
  /** Its billing period's start (ms, UTC): the partition a partitioned dataset writes it in. */
  readonly billingStart: number;
}
/** What is charged: a price component of a resource type, or a customer-level category. */
export type FocusCharge = FocusParts<"charge">;
/** Whose it is: a team and project, or the billing account itself (all null). */
export type FocusOwner = FocusParts<"owner">;

export interface FocusContext {
  currency: string;
  accountId: string;
  /** The billing account's name as given: it wins over a team's name read from the API. */
  accountName: string | undefined;
  /** A team token billed through an organisation reads the team's share of its billing. */
  teamScoped: boolean;
  names: Map<string, string>;
  /** The projects' ids (what the other actions and the workflows name them by), by their uids. */
  projectIds: Map<string, string>;
  /** The finalized invoices by the start of their billing period (ms): a charge in one has its id. */
  invoices: Map<number, string>;
}

/**
 * FOCUS's ServiceCategory and ServiceSubcategory of each resource type (FOCUS 1.2: one category per
 * service, and a subcategory among those its category allows): services, jobs and harnesses run as
 * containers; an addon is a database of a kind the usage does not say; a volume is block storage.
 */
const SERVICE_CATEGORIES = new Map<string, readonly [string, string]>([
  ["service", ["Compute", "Containers"]],
  ["job", ["Compute", "Containers"]],
  ["harness", ["Compute", "Containers"]],
  ["addon", ["Databases", "Other (Databases)"]],
  ["volume", ["Storage", "Block Storage"]],
]);
/** A resource type the platform adds later. */
const OTHER_SERVICE = ["Other", "Other (Other)"] as const;

/** A PaaS price component: its price and usage fields, its label and its unit (FOCUS UnitFormat). */
export const COMPONENTS = [
  ["cpu", "vcpuHours", "vCPU", "vCPU-Hours"],
  ["memory", "memoryGibHours", "memory", "GiB-Hours"],
  ["storage", "storageGibHours", "storage", "GiB-Hours"],
  ["gpu", "gpuHours", "GPU", "GPU-Hours"],
] as const;
export type Component = (typeof COMPONENTS)[number];

/**
 * Customer-level categories: their field, description, ServiceCategory, ServiceSubcategory and
 * HostProviderName (FOCUS 1.3). BYOC runs the customer's containers on their own clusters, in a
 * cloud the customer chose: its host is that cloud, which the platform's usage does not name (a
 * cluster has an id and a name only), so the column is null there rather than a guess; egress IPs
 * (network infrastructure) and load balancers (application networking) are the platform's own.
 */
export const CUSTOMER_CHARGES = [
  ["byoc", "Bring your own cloud", "Compute", "Containers", null],
  ["egressIp", "Egress IP", "Networking", "Network Infrastructure", PROVIDER],
  ["loadBalancer", "Load balancer", "Networking", "Application Networking", PROVIDER],
] as const;
export type CustomerCategory = (typeof CUSTOMER_CHARGES)[number];

/** The unit of a charge the platform gives no quantity for: the hours of its charge period. */
export const HOURS = "Hours";

/** A time the platform sends (epoch seconds, as a number or digits, or ISO 8601 text) in ms; NaN if not one. */
export const millis = (t: string | number) =>
  /^\d+$/.test(String(t)) ? Number(t) * 1000 : Date.parse(String(t));

/** The charge period of an entry, from its window (or its hour's timestamp), in its billing month. */
export function focusPeriod(
  at: { window?: UsageEntry["window"]; timestamp?: number | undefined },
  context: FocusContext,
): FocusPeriod {
  const start = millis(at.window?.start ?? at.timestamp ?? Number.NaN);
  const end = at.window?.end !== undefined ? millis(at.window.end) : start + HOUR_MS;
  const month = new Date(start);
  const billingStart = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
  const billingEnd = Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1);
  return {
    part: "period",
    hours: (end - start) / HOUR_MS,
    billingStart,
    values: [
      context.accountId,
      context.accountName ?? context.names.get(context.accountId) ?? null,
      context.teamScoped ? "Team billed through an organisation" : "Billing customer",
      context.currency,
      billingStart,
      billingEnd,
      start,
      end,
      "Usage",
      null,
      "Usage-Based",
      // InvoiceIssuerName, ProviderName, PublisherName (both deprecated in 1.3, still required),
      // ServiceProviderName.
      PROVIDER,
      PROVIDER,
      PROVIDER,
      PROVIDER,
      context.invoices.get(billingStart) ?? null,
    ],
  };
}

/** A price component of a resource type, in its own unit or, without a quantity, in hours. */
export function paasCharge(type: string, component: Component, hourly: boolean): FocusCharge {
  const [, , label, unit] = component;
  const service = `PaaS ${type}`;
  const chargeUnit = hourly ? HOURS : unit;
  // A Map: a type named like an object's member (`constructor`, `__proto__`) is a type like any other.
  const [category, subcategory] = SERVICE_CATEGORIES.get(type) ?? OTHER_SERVICE;
  return {
    part: "charge",
    values: [`${service}: ${label}`, category, service, subcategory, type, chargeUnit, chargeUnit, PROVIDER],
  };
}

/**
 * A customer-level category, billed to the account: a price component in its own unit (BYOC's vCPU
 * and memory, with the usage the platform sends), or, what has no quantity, in the hours of its
 * charge period.
 */
export function customerCharge(
  [, description, category, subcategory, host]: CustomerCategory,
  component?: Component,
): FocusCharge {
  const [label, unit] = component ? [`${description}: ${component[2]}`, component[3]] : [description, HOURS];
  return { part: "charge", values: [label, category, description, subcategory, null, unit, unit, host] };
}

/**
 * A team's project: the team by its uid and name, the project by its id (as workflows name it),
 * name and uid (as billing names it). A project the projects list does not have (gone since) has
 * its uid alone: no id or name is made up for it.
 */
export function projectOwner(
  teamId: string,
  projectUid: string,
  { names, projectIds }: Pick<FocusContext, "names" | "projectIds">,
): FocusOwner {
  const id = projectIds.get(projectUid) ?? null;
  const name = id === null ? null : (names.get(projectUid) ?? id);
  return { part: "owner", values: [teamId, names.get(teamId) ?? teamId, "Team", id, name, projectUid] };
}

export const ACCOUNT_OWNER: FocusOwner = { part: "owner", values: [null, null, null, null, null, null] };
