// The columns of the FOCUS dataset (FinOps FOCUS 1.3, with the two columns 1.3 deprecates but still
// requires, so one file serves 1.2 and 1.3 readers), in the order both files write them: every
// mandatory column, the conditional ones the platform has data for, then ours with the x_ prefix
// FOCUS reserves for custom columns. Grouped by what a value is shared with (the `part`), so that
// focus.csv writes a row as a few pieces encoded once and a few values of its own.

/**
 * What a column's value belongs to: the row itself, or a part many rows share. `unnamed`: a
 * column null in every row (ResourceName: the platform's usage names no resource; see parts.ts).
 */
export type FocusPart = "cost" | "period" | "charge" | "quantity" | "resource" | "unnamed" | "owner";
/** The parts many rows share: made once, encoded once by each file. */
export type SharedPart = "period" | "charge" | "owner";
/** FOCUS's data types: Decimal, Date/Time (UTC) and String. */
export type FocusType = "decimal" | "datetime" | "string";

export interface FocusColumn {
  name: string;
  type: FocusType;
  part: FocusPart;
  /** Whether FOCUS allows the column to be null in rows like ours. */
  nullable: boolean;
}

const column = (name: string, type: FocusType, part: FocusPart, nullable = false): FocusColumn => ({
  name,
  type,
  part,
  nullable,
});

export const FOCUS_COLUMNS: readonly FocusColumn[] = [
  column("BilledCost", "decimal", "cost"),
  column("EffectiveCost", "decimal", "cost"),
  column("ListCost", "decimal", "cost"),
  column("ContractedCost", "decimal", "cost"),
  column("BillingAccountId", "string", "period"),
  column("BillingAccountName", "string", "period", true),
  column("BillingAccountType", "string", "period"),
  column("BillingCurrency", "string", "period"),
  column("BillingPeriodStart", "datetime", "period"),
  column("BillingPeriodEnd", "datetime", "period"),
  column("ChargePeriodStart", "datetime", "period"),
  column("ChargePeriodEnd", "datetime", "period"),
  column("ChargeCategory", "string", "period"),
  column("ChargeClass", "string", "period", true),
  column("ChargeFrequency", "string", "period"),
  column("InvoiceIssuerName", "string", "period"),
  column("ProviderName", "string", "period"),
  column("PublisherName", "string", "period"),
  column("ServiceProviderName", "string", "period"),
  column("InvoiceId", "string", "period", true),
  column("ChargeDescription", "string", "charge"),
  column("ServiceCategory", "string", "charge"),
  column("ServiceName", "string", "charge"),
  column("ServiceSubcategory", "string", "charge"),
  column("ResourceType", "string", "charge", true),
  column("PricingUnit", "string", "charge"),
  column("ConsumedUnit", "string", "charge"),
  column("HostProviderName", "string", "charge", true),
  column("PricingQuantity", "decimal", "quantity"),
  column("ConsumedQuantity", "decimal", "quantity"),
  column("ResourceId", "string", "resource", true),
  column("ResourceName", "string", "unnamed", true),
  column("SubAccountId", "string", "owner", true),
  column("SubAccountName", "string", "owner", true),
  column("SubAccountType", "string", "owner", true),
  column("x_ProjectId", "string", "owner", true),
  column("x_ProjectName", "string", "owner", true),
  column("x_ProjectUid", "string", "owner", true),
];

/** The FOCUS version the files declare (README; focus.parquet's key-value metadata). */
export const FOCUS_VERSION = "1.3";

/** The columns of one part, in file order. */
export const columnsOf = (part: FocusPart) => FOCUS_COLUMNS.filter((c) => c.part === part);

/** A value of a shared part: text, a date-time as milliseconds since the epoch (UTC), or null. */
export type FocusValue = string | number | null;
