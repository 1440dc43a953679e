import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harnessPlatform, leakedSecrets, runBundle } from "@cwp/action-testing";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, expect } from "vitest";

// What the FOCUS dataset tests share: the emulator at scale, DuckDB, the action run that writes the
// files, and the rules of FOCUS checked on them. The tests: focus-dataset.test.ts and
// focus-scopes.test.ts (focus.csv and focus.parquet), focus-partitioned.test.ts and
// focus-partitioned-less.test.ts (focus/ by billing period), side by side.
// The FOCUS dataset as a FinOps tool loads it: the built action writes focus.csv and
// focus.parquet against the emulator, DuckDB reads both, and the rules of FOCUS 1.2 and of 1.3 are
// checked on each (the files declare 1.3 and keep the columns 1.3 deprecates, so that a 1.2 reader
// reads them too). The FinOps Foundation's validator is a Python package our machines cannot
// install, so its rules are written here from the specification
// (https://focus.finops.org/focus-specification/v1-2/ and v1-3/), each citing its section; the
// list is this test's own reading, not taken from the action's code.

export const SPEC = "https://focus.finops.org/focus-specification/v1-2/#";
export const SPEC_1_3 = "https://focus.finops.org/focus-specification/v1-3/#";
export const actionDir = fileURLToPath(new URL("..", import.meta.url));
// 3,000 resources: a month by day is more rows than one Parquet row group holds.
export const platform = harnessPlatform({
  speed: 0,
  scale: { teams: 6, projectsPerTeam: 10, resourcesPerProject: 50 },
});

/** FOCUS 1.2's mandatory columns (each column's "Feature level: Mandatory"). */
export const MANDATORY = [
  "BilledCost",
  "BillingAccountId",
  "BillingAccountName",
  "BillingCurrency",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargeCategory",
  "ChargeClass",
  "ChargeDescription",
  "ChargePeriodEnd",
  "ChargePeriodStart",
  "ContractedCost",
  "EffectiveCost",
  "InvoiceIssuerName",
  "ListCost",
  "PricingQuantity",
  "PricingUnit",
  "ProviderName",
  "PublisherName",
  "ServiceCategory",
  "ServiceName",
];
/**
 * FOCUS 1.3's new columns for who provides a charge: ServiceProviderName (mandatory, never null)
 * and HostProviderName (present; null only where a charge runs on no infrastructure of a host
 * the dataset can name). ProviderName and PublisherName, which 1.3 deprecates, stay mandatory above.
 */
export const PROVIDERS_1_3 = ["ServiceProviderName", "HostProviderName"];
/** The columns FOCUS 1.2 defines that this dataset also has (conditional and recommended ones). */
export const CONDITIONAL = [
  "BillingAccountType",
  "ChargeFrequency",
  "ConsumedQuantity",
  "ConsumedUnit",
  "InvoiceId",
  "ResourceId",
  "ResourceName",
  "ResourceType",
  "ServiceSubcategory",
  "SubAccountId",
  "SubAccountName",
  "SubAccountType",
];
export const DECIMALS = [
  "BilledCost",
  "EffectiveCost",
  "ListCost",
  "ContractedCost",
  "PricingQuantity",
  "ConsumedQuantity",
];
export const DATETIMES = ["BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd"];
/** The mandatory columns FOCUS 1.2 allows to be null ("Allows nulls: True"); PricingQuantity and PricingUnit have rules of their own below. */
export const NULLABLE = ["BillingAccountName", "ChargeClass", "PricingQuantity", "PricingUnit"];
export const NOT_NULL = MANDATORY.filter((c) => !NULLABLE.includes(c));
export const SERVICE_CATEGORIES = [
  "AI and Machine Learning",
  "Analytics",
  "Business Applications",
  "Compute",
  "Databases",
  "Developer Tools",
  "Multicloud",
  "Identity",
  "Integration",
  "Internet of Things",
  "Management and Governance",
  "Media",
  "Migration",
  "Mobile",
  "Networking",
  "Security",
  "Storage",
  "Web",
  "Other",
];
/** FOCUS 1.2's ServiceSubcategory values, by ServiceCategory (each category's own, "Other (…)" last). */
export const SERVICE_SUBCATEGORIES: Record<string, string[]> = {
  "AI and Machine Learning": [
    "AI Platforms",
    "Bots",
    "Generative AI",
    "Machine Learning",
    "Natural Language Processing",
    "Other (AI and Machine Learning)",
  ],
  Analytics: [
    "Analytics Platforms",
    "Business Intelligence",
    "Data Processing",
    "Search",
    "Streaming Analytics",
    "Other (Analytics)",
  ],
  "Business Applications": ["Productivity and Collaboration", "Other (Business Applications)"],
  Compute: [
    "Containers",
    "End User Computing",
    "Quantum Compute",
    "Serverless Compute",
    "Virtual Machines",
    "Other (Compute)",
  ],
  Databases: [
    "Caching",
    "Data Warehouses",
    "Ledger Databases",
    "NoSQL Databases",
    "Relational Databases",
    "Time Series Databases",
    "Other (Databases)",
  ],
  "Developer Tools": [
    "Developer Platforms",
    "Continuous Integration and Deployment",
    "Development Environments",
    "Source Code Management",
    "Quality Assurance",
    "Other (Developer Tools)",
  ],
  Identity: ["Identity and Access Management", "Other (Identity)"],
  Integration: ["API Management", "Messaging", "Workflow Orchestration", "Other (Integration)"],
  "Internet of Things": ["IoT Analytics", "IoT Platforms", "Other (Internet of Things)"],
  "Management and Governance": [
    "Architecture",
    "Compliance",
    "Cost Management",
    "Data Governance",
    "Disaster Recovery",
    "Endpoint Management",
    "Observability",
    "Support",
    "Other (Management and Governance)",
  ],
  Media: ["Content Creation", "Gaming", "Media Streaming", "Mixed Reality", "Other (Media)"],
  Migration: ["Data Migration", "Resource Migration", "Other (Migration)"],
  Mobile: ["Other (Mobile)"],
  Multicloud: ["Multicloud Integration", "Other (Multicloud)"],
  Networking: [
    "Application Networking",
    "Content Delivery",
    "Network Connectivity",
    "Network Infrastructure",
    "Network Routing",
    "Network Security",
    "Other (Networking)",
  ],
  Security: [
    "Secret Management",
    "Security Posture Management",
    "Threat Detection and Response",
    "Other (Security)",
  ],
  Storage: [
    "Backup Storage",
    "Block Storage",
    "File Storage",
    "Object Storage",
    "Storage Platforms",
    "Other (Storage)",
  ],
  Web: ["Application Platforms", "Other (Web)"],
  Other: ["Other (Other)"],
};
export const list = (values: string[]) => values.map((v) => `'${v}'`).join(", ");
/** UnitFormat: a count or data-size unit and, for a compound unit, a plural time unit after a hyphen. */
export const UNIT = "^([0-9]+ )?[A-Za-z]+(-(Years|Months|Days|Hours|Minutes|Seconds))?$";

/** A rule of FOCUS as the rows that break it: `t` is the table, with its typed columns. */
export interface Rule {
  section: string;
  rule: string;
  violations: string;
  /** The version whose text it cites: 1.2 unless said. */
  spec?: string;
}
export const RULES: Rule[] = [
  ...NOT_NULL.map((c) => ({
    section: c.toLowerCase(),
    rule: `${c} is not null`,
    violations: `${c} IS NULL`,
  })),
  {
    section: "chargecategory",
    rule: "ChargeCategory is one of FOCUS's values",
    violations: `ChargeCategory NOT IN ('Adjustment', 'Credit', 'Purchase', 'Tax', 'Usage')`,
  },
  {
    section: "chargeclass",
    rule: "ChargeClass is null or Correction",
    violations: `ChargeClass IS NOT NULL AND ChargeClass <> 'Correction'`,
  },
  {
    section: "chargefrequency",
    rule: "ChargeFrequency is one of FOCUS's values, and not Usage-Based for a purchase",
    violations: `ChargeFrequency NOT IN ('One-Time', 'Recurring', 'Usage-Based') OR (ChargeFrequency = 'Usage-Based' AND ChargeCategory = 'Purchase')`,
  },
  {
    section: "servicecategory",
    rule: "ServiceCategory is one of FOCUS's values",
    violations: `ServiceCategory NOT IN (${list(SERVICE_CATEGORIES)})`,
  },
  {
    section: "servicecategory",
    rule: "a service has one category",
    violations: `ServiceName IN (SELECT ServiceName FROM t GROUP BY ServiceName HAVING count(DISTINCT ServiceCategory) > 1)`,
  },
  {
    section: "servicesubcategory",
    rule: "ServiceSubcategory is one of the values FOCUS allows for the row's ServiceCategory",
    violations: `ServiceSubcategory IS NULL OR NOT (${Object.entries(SERVICE_SUBCATEGORIES)
      .map(
        ([category, subs]) => `(ServiceCategory = '${category}' AND ServiceSubcategory IN (${list(subs)}))`,
      )
      .join(" OR ")})`,
  },
  {
    section: "resourcename",
    rule: "ResourceName is null when ResourceId is null, and never duplicates a system-generated ResourceId",
    violations: `(ResourceId IS NULL AND ResourceName IS NOT NULL) OR ResourceName = ResourceId`,
  },
  {
    section: "subaccountname",
    rule: "SubAccountName is the sub account's display name, not its id (every team here has a name), whatever the grouping",
    violations: `SubAccountName = SubAccountId`,
  },
  {
    section: "subaccountname",
    rule: "x_ProjectName is the project's name, not its id, whatever the grouping (README's mapping)",
    violations: `x_ProjectName = x_ProjectId OR (x_ProjectId IS NULL) <> (x_ProjectName IS NULL)`,
  },
  {
    section: "subaccountname",
    rule: "x_ProjectId is the project's id as workflows name it (not its uid), x_ProjectUid its 24-hex uid, set together for a project's charges (README's mapping)",
    violations: `x_ProjectId = x_ProjectUid OR NOT regexp_full_match(x_ProjectUid, '[0-9a-f]{24}') OR (x_ProjectId IS NOT NULL AND x_ProjectUid IS NULL) OR (SubAccountId IS NULL) <> (x_ProjectUid IS NULL)`,
  },
  {
    section: "invoiceid",
    rule: "an InvoiceId belongs to one billing account",
    violations: `InvoiceId IN (SELECT InvoiceId FROM t WHERE InvoiceId IS NOT NULL GROUP BY InvoiceId HAVING count(DISTINCT BillingAccountId) > 1)`,
  },
  {
    section: "billingcurrency",
    rule: "BillingCurrency is an ISO 4217 code (CurrencyFormat)",
    violations: `NOT regexp_full_match(BillingCurrency, '[A-Z]{3}')`,
  },
  {
    section: "chargeperiodend",
    rule: "ChargePeriodEnd is after ChargePeriodStart",
    violations: `ChargePeriodEnd <= ChargePeriodStart`,
  },
  {
    section: "billingperiodend",
    rule: "BillingPeriodEnd is after BillingPeriodStart, and the charge period lies within the billing period",
    violations: `BillingPeriodEnd <= BillingPeriodStart OR ChargePeriodStart < BillingPeriodStart OR ChargePeriodEnd > BillingPeriodEnd`,
  },
  {
    section: "pricingquantity",
    rule: "PricingQuantity is not null for usage that is not a correction, and null for tax",
    violations: `(PricingQuantity IS NULL AND ChargeCategory IN ('Usage', 'Purchase') AND ChargeClass IS NULL) OR (PricingQuantity IS NOT NULL AND ChargeCategory = 'Tax')`,
  },
  {
    section: "pricingunit",
    rule: "PricingUnit is set exactly when PricingQuantity is, in UnitFormat",
    violations: `(PricingUnit IS NULL) <> (PricingQuantity IS NULL) OR NOT regexp_full_match(PricingUnit, '${UNIT}')`,
  },
  {
    section: "consumedquantity",
    rule: "ConsumedQuantity is a non-negative decimal for usage that is not a correction, null otherwise",
    violations: `(ChargeCategory = 'Usage' AND ChargeClass IS NULL AND (ConsumedQuantity IS NULL OR ConsumedQuantity < 0)) OR (ChargeCategory <> 'Usage' AND ConsumedQuantity IS NOT NULL)`,
  },
  {
    section: "consumedunit",
    rule: "ConsumedUnit is set exactly when ConsumedQuantity is, in UnitFormat",
    violations: `(ConsumedUnit IS NULL) <> (ConsumedQuantity IS NULL) OR NOT regexp_full_match(ConsumedUnit, '${UNIT}')`,
  },
  {
    section: "effectivecost",
    rule: "EffectiveCost is BilledCost where no commitment discount or prepayment applies",
    violations: `EffectiveCost <> BilledCost`,
  },
  {
    section: "listcost",
    rule: "ListCost and ContractedCost are BilledCost: the platform bills at list price, without negotiated discounts (README's mapping)",
    violations: `ListCost <> BilledCost OR ContractedCost <> BilledCost`,
  },
  {
    section: "resourcetype",
    rule: "ResourceType is set when ResourceId is",
    violations: `ResourceId IS NOT NULL AND ResourceType IS NULL`,
  },
  {
    section: "subaccountname",
    rule: "SubAccountName and SubAccountType are set exactly when SubAccountId is",
    violations: `(SubAccountId IS NULL) <> (SubAccountName IS NULL) OR (SubAccountId IS NULL) <> (SubAccountType IS NULL)`,
  },
  {
    section: "billingaccounttype",
    rule: "BillingAccountType is set exactly when BillingAccountId is",
    violations: `(BillingAccountId IS NULL) <> (BillingAccountType IS NULL)`,
  },
  // FOCUS 1.3.
  {
    spec: SPEC_1_3,
    section: "serviceprovidername",
    rule: "ServiceProviderName is not null",
    violations: `ServiceProviderName IS NULL`,
  },
  {
    spec: SPEC_1_3,
    section: "hostprovidername",
    rule: "HostProviderName is the service provider where the customer neither chooses nor sees the host; BYOC runs on the customer's own cloud, which the platform's usage does not name, so it is null there and only there (README's mapping)",
    violations: `HostProviderName IS DISTINCT FROM (CASE WHEN ServiceName = 'Bring your own cloud' THEN NULL ELSE ServiceProviderName END)`,
  },
  {
    spec: SPEC_1_3,
    section: "providername",
    rule: "the deprecated ProviderName and PublisherName still name the provider, as ServiceProviderName does (one file for 1.2 and 1.3 readers)",
    violations: `ProviderName IS DISTINCT FROM ServiceProviderName OR PublisherName IS DISTINCT FROM ServiceProviderName`,
  },
  {
    spec: SPEC_1_3,
    section: "listcost",
    rule: "ListCost and ContractedCost equal unit price × PricingQuantity wherever a unit price is given, corrections included: no unit price column is given (the platform publishes no price list), so the costs stand as billed",
    violations: `EXISTS (SELECT 1 FROM (DESCRIBE SELECT * FROM t) WHERE column_name IN ('ListUnitPrice', 'ContractedUnitPrice', 'SkuPriceId'))`,
  },
];

/** The column types of focus.parquet: FOCUS's Decimal, Date/Time and String. */
export const parquetType = (column: string) =>
  DECIMALS.includes(column) ? "DOUBLE" : DATETIMES.includes(column) ? "TIMESTAMP WITH TIME ZONE" : "VARCHAR";

export let duck: DuckDBConnection;
/**
 * This file's emulator and DuckDB connection; call once, at the file's top (a worker keeps this
 * module for the files it runs after).
 */
export function useFocusChecks() {
  platform.use();
  beforeAll(async () => {
    duck = await (await DuckDBInstance.create(":memory:")).connect();
  });
  afterAll(() => duck?.closeSync());
}

export async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}
export const count = async (sql: string) => Number((await rows(sql))[0]?.n);
export const quoted = (path: string) => `'${path.replace(/'/g, "''")}'`;

/** Runs the action with both FOCUS formats, and loads its files: csv and pq (typed), csv_text. */
export async function focusReport(inputs: Record<string, string>, token = platform.tokens.org) {
  await platform.reset();
  const dir = join(tmpdir(), `cwp-focus-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const result = await runBundle(actionDir, {
    inputs: {
      ...platform.connection(token),
      "output-dir": dir,
      formats: "json,focus,focus-parquet",
      ...inputs,
    },
  });
  expect(result.code, result.stdout).toBe(0);
  expect(leakedSecrets(result, [token])).toEqual([]);
  const csv = join(dir, "focus.csv");
  const parquet = join(dir, "focus.parquet");
  const header = (await readFile(csv, "utf8")).split("\n", 1)[0]?.split(",") ?? [];
  const typed = header.map((c) => `'${c}': '${parquetType(c)}'`).join(", ");
  // Each file read once into a table: the checks then query rows already read, not the files again
  // for each of their queries (a hundred thousand rows of CSV parsed 60 times over took most of a run).
  await duck.run(
    `CREATE OR REPLACE TABLE csv_text AS SELECT * FROM read_csv(${quoted(csv)}, header = true, all_varchar = true)`,
  );
  await duck.run(
    `CREATE OR REPLACE TABLE csv AS SELECT * FROM read_csv(${quoted(csv)}, header = true, columns = {${typed}})`,
  );
  await duck.run(`CREATE OR REPLACE TABLE pq AS SELECT * FROM read_parquet(${quoted(parquet)})`);
  const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as {
    total: string;
    period: { start: string; end: string };
    allRows: { key: string; cost: string; usage: Record<string, string> }[];
  };
  return { header, json, parquet };
}

/** A value as both readers can say it: a date-time as milliseconds, a number, text or null. */
export const plain = (value: unknown): unknown =>
  value instanceof Date ? value.getTime() : typeof value === "bigint" ? Number(value) : value;

/**
 * A second reader, hyparquet (JavaScript, its own decoder: thrift, RLE/bit-packing, dictionaries,
 * Zstandard through hyparquet-compressors), reads focus.parquet row for row as DuckDB does.
 */
export async function sameInHyparquet(parquet: string, header: string[]): Promise<void> {
  const file = await asyncBufferFromFile(parquet);
  const read = (await parquetReadObjects({ file, compressors })) as Record<string, unknown>[];
  const times = header.filter((c) => DATETIMES.includes(c));
  const select = header.map((c) => (times.includes(c) ? `epoch_ms(${c}) AS ${c}` : c)).join(", ");
  // Each row as DuckDB's own JSON text, parsed here: the same values, read in a quarter of the
  // time the client's value-by-value conversion of a hundred thousand rows takes.
  const duckRows = (await rows(`SELECT to_json(t)::VARCHAR AS j FROM (SELECT ${select} FROM pq) t`)).map(
    (r) => JSON.parse(String(r.j)) as Record<string, unknown>,
  );
  expect(read).toHaveLength(duckRows.length);
  read.forEach((row, i) => {
    const ours = Object.fromEntries(header.map((c) => [c, plain(row[c])]));
    const duck = Object.fromEntries(header.map((c) => [c, duckRows[i]?.[c] ?? null]));
    for (const c of times) duck[c] = duck[c] === null ? null : Number(duck[c]);
    if (JSON.stringify(ours) !== JSON.stringify(duck)) expect(ours, `row ${i}`).toEqual(duck);
  });
}

/**
 * What engines skip data by, and the format's finer points, as DuckDB reads them from the footer:
 * every column chunk of the dates and costs has a min and max that are its values' own, and a null
 * count; a row group's total_byte_size is its columns' uncompressed size; created_by has the
 * format's form.
 */
export async function footerAsTheFormatSays(parquet: string): Promise<void> {
  const [file] = await rows(`SELECT created_by FROM parquet_file_metadata(${quoted(parquet)})`);
  expect(file?.created_by).toMatch(/^cwp-usage-report version \d+\.\d+\.\d+ \(build [0-9a-f]{12}\)$/);
  // The FOCUS version the file declares, under FOCUS's metadata id, in the footer's key-value metadata.
  const metadata = await rows(
    `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${quoted(parquet)}) ORDER BY key`,
  );
  expect(metadata).toEqual([
    { key: "DataGenerator", value: "cwp usage-report" },
    { key: "DataGeneratorVersion", value: expect.stringMatching(/^\d+\.\d+\.\d+$/) },
    { key: "FocusVersion", value: "1.3" },
  ]);
  const sizes = await rows(
    `SELECT row_group_id, any_value(row_group_bytes) AS bytes, sum(total_uncompressed_size) AS uncompressed, sum(total_compressed_size) AS compressed FROM parquet_metadata(${quoted(parquet)}) GROUP BY row_group_id`,
  );
  for (const group of sizes) expect(Number(group.bytes)).toBe(Number(group.uncompressed));
  expect(sizes.some((g) => Number(g.uncompressed) > Number(g.compressed))).toBe(true);
  for (const column of [...DATETIMES, ...DECIMALS]) {
    const chunks = await rows(
      `SELECT stats_min_value AS min, stats_max_value AS max, stats_null_count AS nulls FROM parquet_metadata(${quoted(parquet)}) WHERE path_in_schema = '${column}'`,
    );
    expect(
      chunks.every((c) => c.min !== null && c.max !== null && c.nulls !== null),
      column,
    ).toBe(true);
    const [actual] = await rows(
      `SELECT min(${column})::VARCHAR AS min, max(${column})::VARCHAR AS max, count(*) FILTER (WHERE ${column} IS NULL) AS nulls FROM pq`,
    );
    const [stated] = await rows(
      `SELECT min(stats_min_value::${parquetType(column)})::VARCHAR AS min, max(stats_max_value::${parquetType(column)})::VARCHAR AS max, sum(stats_null_count) AS nulls FROM parquet_metadata(${quoted(parquet)}) WHERE path_in_schema = '${column}'`,
    );
    expect(stated, column).toEqual(actual);
  }
  // A column null in every row of a row group has a null count of all its rows there, and no values.
  const allNull = await rows(
    `SELECT path_in_schema AS c, stats_null_count AS nulls, row_group_num_rows AS rows, stats_min_value AS min FROM parquet_metadata(${quoted(parquet)}) WHERE stats_null_count = row_group_num_rows`,
  );
  for (const chunk of allNull) expect(chunk.min, String(chunk.c)).toBeNull();
}

/** The rules broken, by table: empty when the dataset is FOCUS 1.2 as far as these rules go. */
export async function broken(table: string): Promise<string[]> {
  const found: string[] = [];
  for (const r of RULES) {
    const n = await count(
      `WITH t AS (SELECT * FROM ${table}) SELECT count(*) AS n FROM t WHERE ${r.violations}`,
    );
    if (n > 0) found.push(`${table}: ${r.rule} (${r.spec ?? SPEC}${r.section}): ${n} rows`);
  }
  return found;
}

/** Both files: the same columns and rows, Parquet typed, FOCUS's rules kept, the costs adding up. */
export async function checkDataset(
  header: string[],
  json: { total: string; allRows: { cost: string }[] },
  parquet: string,
) {
  // Column naming (FOCUS 1.2 "Column Naming and Ordering"): every FOCUS column, the rest x_.
  const focus = [...MANDATORY, ...PROVIDERS_1_3, ...CONDITIONAL];
  expect(header).toEqual(expect.arrayContaining(focus));
  expect(header.filter((c) => !focus.includes(c) && !c.startsWith("x_"))).toEqual([]);
  const described = await rows("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM pq)");
  expect(described).toEqual(header.map((c) => ({ column_name: c, column_type: parquetType(c) })));

  const total = await count("SELECT count(*) AS n FROM csv");
  expect(total).toBeGreaterThan(0);
  expect(await count("SELECT count(*) AS n FROM pq")).toBe(total);
  expect(await count("SELECT count(*) AS n FROM (SELECT * FROM csv EXCEPT ALL SELECT * FROM pq)")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM (SELECT * FROM pq EXCEPT ALL SELECT * FROM csv)")).toBe(0);

  expect([...(await broken("csv")), ...(await broken("pq"))]).toEqual([]);
  // Null handling: a string column holds null, never an empty or placeholder string.
  const strings = header.filter((c) => parquetType(c) === "VARCHAR");
  expect(
    await count(`SELECT count(*) AS n FROM pq WHERE ${strings.map((c) => `${c} = ''`).join(" OR ")}`),
  ).toBe(0);
  // Date/Time Format: ISO 8601 in UTC to the second, 'YYYY-MM-DDTHH:mm:ssZ'.
  const badTime = DATETIMES.map(
    (c) => `NOT regexp_full_match(${c}, '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z')`,
  );
  expect(await count(`SELECT count(*) AS n FROM csv_text WHERE ${badTime.join(" OR ")}`)).toBe(0);
  // Numeric Format: plain decimals, no thousands separators, currency symbols or exponents.
  const badNumber = DECIMALS.map((c) => `NOT regexp_full_match(${c}, '-?\\d+(\\.\\d+)?')`);
  expect(await count(`SELECT count(*) AS n FROM csv_text WHERE ${badNumber.join(" OR ")}`)).toBe(0);

  // The BilledCost of the dataset is the report's: every row of the report, and its total.
  const sums = await rows(
    "SELECT (SELECT sum(BilledCost::DECIMAL(18, 6)) FROM csv)::VARCHAR AS csv, (SELECT sum(BilledCost::DECIMAL(18, 6)) FROM pq)::VARCHAR AS pq",
  );
  const reportRows = json.allRows.reduce((s, r) => s + Math.round(Number(r.cost) * 1e6), 0);
  expect(sums[0]?.csv).toBe(sums[0]?.pq);
  expect(Math.round(Number(sums[0]?.pq) * 1e6)).toBe(reportRows);
  expect(Number(sums[0]?.pq).toFixed(2)).toBe(Number(json.total).toFixed(2));

  await sameInHyparquet(parquet, header);
  await footerAsTheFormatSays(parquet);
}

// Each report writes and reads back a hundred thousand rows: more than the default 20 s on a loaded CI machine.
// The timeouts bound a hang, nothing more: a hundred thousand rows took over 90 s on two cores
// beside two busy loops.
/** The calendar months (UTC, as YYYY-MM) that a window [start, end) touches, the first first. */
export function monthsOf(window: { start: string; end: string }): string[] {
  const months: string[] = [];
  const end = Date.parse(window.end);
  for (
    let d = new Date(window.start);
    d.getTime() < end;
    d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1))
  )
    months.push(d.toISOString().slice(0, 7));
  return months;
}

export function twoWholeMonths(): { start: string; end: string; months: string[] } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const month = (d: Date) => d.toISOString().slice(0, 7);
  return {
    start: first.toISOString().slice(0, 10),
    end: last.toISOString().slice(0, 10),
    months: [month(first), month(last)],
  };
}
