import { copyFile, mkdir, mkdtemp, readdir, readFile, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { arrowPruning, leakedSecrets, runBundle, useTestPlatform } from "@cwp/action-testing";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectListGoingRound } from "./project-list-going-round.js";

// The FOCUS dataset as a FinOps tool loads it: the built action writes focus.csv and
// focus.parquet against the emulator, DuckDB reads both, and the rules of FOCUS 1.2 and of 1.3 are
// checked on each (the files declare 1.3 and keep the columns 1.3 deprecates, so that a 1.2 reader
// reads them too). The FinOps Foundation's validator is a Python package our machines cannot
// install, so its rules are written here from the specification
// (https://focus.finops.org/focus-specification/v1-2/ and v1-3/), each citing its section; the
// list is this test's own reading, not taken from the action's code.

const SPEC = "https://focus.finops.org/focus-specification/v1-2/#";
const SPEC_1_3 = "https://focus.finops.org/focus-specification/v1-3/#";
const actionDir = fileURLToPath(new URL("..", import.meta.url));
// 3,000 resources: a month by day is more rows than one Parquet row group holds.
const platform = useTestPlatform({
  speed: 0,
  scale: { teams: 6, projectsPerTeam: 10, resourcesPerProject: 50 },
});

/** FOCUS 1.2's mandatory columns (each column's "Feature level: Mandatory"). */
const MANDATORY = [
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
const PROVIDERS_1_3 = ["ServiceProviderName", "HostProviderName"];
/** The columns FOCUS 1.2 defines that this dataset also has (conditional and recommended ones). */
const CONDITIONAL = [
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
const DECIMALS = [
  "BilledCost",
  "EffectiveCost",
  "ListCost",
  "ContractedCost",
  "PricingQuantity",
  "ConsumedQuantity",
];
const DATETIMES = ["BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd"];
/** The mandatory columns FOCUS 1.2 allows to be null ("Allows nulls: True"); PricingQuantity and PricingUnit have rules of their own below. */
const NULLABLE = ["BillingAccountName", "ChargeClass", "PricingQuantity", "PricingUnit"];
const NOT_NULL = MANDATORY.filter((c) => !NULLABLE.includes(c));
const SERVICE_CATEGORIES = [
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
const SERVICE_SUBCATEGORIES: Record<string, string[]> = {
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
const list = (values: string[]) => values.map((v) => `'${v}'`).join(", ");
/** UnitFormat: a count or data-size unit and, for a compound unit, a plural time unit after a hyphen. */
const UNIT = "^([0-9]+ )?[A-Za-z]+(-(Years|Months|Days|Hours|Minutes|Seconds))?$";

/** A rule of FOCUS as the rows that break it: `t` is the table, with its typed columns. */
interface Rule {
  section: string;
  rule: string;
  violations: string;
  /** The version whose text it cites: 1.2 unless said. */
  spec?: string;
}
const RULES: Rule[] = [
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
const parquetType = (column: string) =>
  DECIMALS.includes(column) ? "DOUBLE" : DATETIMES.includes(column) ? "TIMESTAMP WITH TIME ZONE" : "VARCHAR";

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => duck?.closeSync());

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}
const count = async (sql: string) => Number((await rows(sql))[0]?.n);
const quoted = (path: string) => `'${path.replace(/'/g, "''")}'`;

/** Runs the action with both FOCUS formats, and loads its files: csv and pq (typed), csv_text. */
async function focusReport(inputs: Record<string, string>, token = platform.tokens.org) {
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
  await duck.run(
    `CREATE OR REPLACE VIEW csv_text AS SELECT * FROM read_csv(${quoted(csv)}, header = true, all_varchar = true)`,
  );
  await duck.run(
    `CREATE OR REPLACE VIEW csv AS SELECT * FROM read_csv(${quoted(csv)}, header = true, columns = {${typed}})`,
  );
  await duck.run(`CREATE OR REPLACE VIEW pq AS SELECT * FROM read_parquet(${quoted(parquet)})`);
  const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as {
    total: string;
    allRows: { key: string; cost: string; usage: Record<string, string> }[];
  };
  return { header, json, parquet };
}

/** A value as both readers can say it: a date-time as milliseconds, a number, text or null. */
const plain = (value: unknown): unknown =>
  value instanceof Date ? value.getTime() : typeof value === "bigint" ? Number(value) : value;

/**
 * A second reader, hyparquet (JavaScript, its own decoder: thrift, RLE/bit-packing, dictionaries,
 * Zstandard through hyparquet-compressors), reads focus.parquet row for row as DuckDB does.
 */
async function sameInHyparquet(parquet: string, header: string[]): Promise<void> {
  const file = await asyncBufferFromFile(parquet);
  const read = (await parquetReadObjects({ file, compressors })) as Record<string, unknown>[];
  const times = header.filter((c) => DATETIMES.includes(c));
  const select = header.map((c) => (times.includes(c) ? `epoch_ms(${c}) AS ${c}` : c)).join(", ");
  const duckRows = await rows(`SELECT ${select} FROM pq`);
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
async function footerAsTheFormatSays(parquet: string): Promise<void> {
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
async function broken(table: string): Promise<string[]> {
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
async function checkDataset(
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
describe("usage-report: the FOCUS dataset (focus.csv and focus.parquet)", { timeout: 300_000 }, () => {
  it("an organisation's month by day: FOCUS 1.2 in both files, Parquet typed and in row groups, the same rows", async () => {
    const { header, json, parquet } = await focusReport({
      period: "last-30-days",
      compare: "false",
      "billing-account-name": "Acme Corp",
    });
    await checkDataset(header, json, parquet);
    const groups = await count(
      `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(${quoted(parquet)})`,
    );
    expect(groups).toBeGreaterThan(1);
    // Arrow, a reader other than DuckDB, skips row groups by their statistics: a filter on the
    // first day keeps fewer than all of them (without the footer's column_orders it kept all).
    const arrow = arrowPruning(parquet, { column: "ChargePeriodStart" });
    expect(arrow.hasMinMax).toBe(true);
    expect(arrow.rowGroups).toBe(groups);
    expect(arrow.kept).toBeLessThan(arrow.rowGroups);
    // The package README's "spend by month and team", as written, on this file: the same rows in
    // any session time zone, each month's spend the file's.
    const readme = await readFile(
      new URL("../../../packages/cost-report/README.md", import.meta.url),
      "utf8",
    );
    const query = /Spend by month and team[\s\S]*?```sql\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(query).toContain("read_parquet('focus.parquet')");
    const inZone = async (zone: string) => {
      await duck.run(`SET TimeZone = '${zone}'`);
      return rows(query.replace("'focus.parquet'", quoted(parquet)).replace(/;\s*$/, ""));
    };
    const spend = await inZone("America/New_York");
    expect(await inZone("UTC")).toEqual(spend);
    expect(spend.map((r) => r.team)).toEqual(expect.arrayContaining(["the billing account", "Platform"]));
    const months = await rows(
      "SELECT strftime(BillingPeriodStart AT TIME ZONE 'UTC', '%Y-%m') AS month, round(sum(BilledCost), 2) AS spend FROM pq GROUP BY ALL ORDER BY month",
    );
    expect(months).toHaveLength(2);
    for (const { month, spend: total } of months)
      expect(spend.filter((r) => r.month === month).reduce((sum, r) => sum + Number(r.spend), 0)).toBeCloseTo(
        Number(total),
        1,
      );
    // BillingAccountName: the name given, on every row (the API names no organisation).
    expect(await rows("SELECT DISTINCT BillingAccountName FROM pq")).toEqual([
      { BillingAccountName: "Acme Corp" },
    ]);
    // InvoiceId: set where the charge's billing period has a finalized invoice (the platform's own
    // list, read here), null where it has none yet (the current month).
    const listed = (await (
      await fetch(new URL("/v1/billing/invoices?perPage=100", platform.url), {
        headers: { authorization: `Bearer ${platform.tokens.org}` },
      })
    ).json()) as { data: { invoices: { id: string; periodStart: string }[] } };
    const invoiceOf = new Map(listed.data.invoices.map((i) => [Date.parse(i.periodStart), i.id]));
    const byMonth = await rows(
      "SELECT DISTINCT epoch_ms(BillingPeriodStart) AS month, InvoiceId FROM pq ORDER BY 1",
    );
    expect(byMonth.length).toBe(2);
    for (const { month, InvoiceId } of byMonth) expect(InvoiceId).toBe(invoiceOf.get(Number(month)) ?? null);
    expect(byMonth.filter((m) => m.InvoiceId !== null)).toHaveLength(1);
    // Customer-level charges are the billing account's own: no team, project or resource.
    const customer = await rows(
      "SELECT DISTINCT ServiceName, ServiceCategory, PricingUnit FROM pq WHERE SubAccountId IS NULL ORDER BY ServiceName, PricingUnit",
    );
    expect(customer).toEqual([
      { ServiceName: "Bring your own cloud", ServiceCategory: "Compute", PricingUnit: "GiB-Hours" },
      { ServiceName: "Bring your own cloud", ServiceCategory: "Compute", PricingUnit: "vCPU-Hours" },
      { ServiceName: "Egress IP", ServiceCategory: "Networking", PricingUnit: "Hours" },
      { ServiceName: "Load balancer", ServiceCategory: "Networking", PricingUnit: "Hours" },
    ]);
    // BYOC usage as quantities: the report's vCPU-hours and memory GiB-hours of BYOC, row for row.
    const byoc = json.allRows.find((r) => r.key === "customer:byoc")?.usage;
    const quantities = await rows(
      "SELECT sum(ConsumedQuantity::DECIMAL(18, 6)) FILTER (WHERE ConsumedUnit = 'vCPU-Hours')::VARCHAR AS vcpu, sum(ConsumedQuantity::DECIMAL(18, 6)) FILTER (WHERE ConsumedUnit = 'GiB-Hours')::VARCHAR AS memory FROM pq WHERE ServiceName = 'Bring your own cloud'",
    );
    expect(Number(quantities[0]?.vcpu)).toBeCloseTo(Number(byoc?.vcpuHours), 4);
    expect(Number(quantities[0]?.memory)).toBeCloseTo(Number(byoc?.memoryGibHours), 4);
  });

  it("a team billed through the organisation, a day by hour: its share, no customer-level charges", async () => {
    const dayBefore = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const { header, json, parquet } = await focusReport(
      { start: dayBefore, end: dayBefore, granularity: "hour", compare: "false", "group-by": "team" },
      platform.tokens.teamViaOrg,
    );
    await checkDataset(header, json, parquet);
    expect(
      await rows(
        "SELECT DISTINCT BillingAccountType, epoch(ChargePeriodEnd) - epoch(ChargePeriodStart) AS seconds FROM pq",
      ),
    ).toEqual([{ BillingAccountType: "Team billed through an organisation", seconds: 3600 }]);
    expect(await count("SELECT count(*) AS n FROM pq WHERE SubAccountId IS NULL")).toBe(0);
    // Its billing account is the team: named by the team's name, read whatever the grouping.
    expect(await count("SELECT count(*) AS n FROM pq WHERE BillingAccountName IS NULL")).toBe(0);
  });

  it("a team with its own billing, by month", async () => {
    const { header, json, parquet } = await focusReport(
      {
        period: "last-month",
        granularity: "month",
        compare: "false",
        "group-by": "resource-type",
        "billing-account-name": "Data team's own billing",
      },
      platform.tokens.teamOwnBilling,
    );
    await checkDataset(header, json, parquet);
    expect(await rows("SELECT DISTINCT BillingAccountName FROM pq")).toEqual([
      { BillingAccountName: "Data team's own billing" },
    ]);
  });

  it("warns, naming the input, when the dataset's BillingAccountName would be empty", async () => {
    await platform.reset();
    const dir = join(tmpdir(), `cwp-focus-unnamed-${process.pid}`);
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "output-dir": dir, formats: "focus", period: "last-7-days" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /::warning::The FOCUS dataset's BillingAccountName is empty.*Name it with billing-account-name: <name>\./,
    );
  });
});

/** Two whole billing periods before this one, as `start` and `end` dates (UTC). */
function twoWholeMonths(): { start: string; end: string; months: string[] } {
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

describe("usage-report: the FOCUS dataset partitioned by billing period (focus-layout: partitioned)", {
  timeout: 300_000,
}, () => {
  const range = twoWholeMonths();
  const inputs = {
    start: range.start,
    end: range.end,
    granularity: "month",
    compare: "false",
    "billing-account-name": "Acme Corp",
  };
  const write = async (
    dir: string,
    layout: "file" | "partitioned",
    extra: Record<string, string> = {},
    token = platform.tokens.org,
  ) =>
    runBundle(actionDir, {
      inputs: {
        ...platform.connection(token),
        "output-dir": dir,
        formats: "focus-parquet",
        "focus-layout": layout,
        ...inputs,
        ...extra,
      },
    });
  const dataset = (root: string) =>
    `read_parquet(${quoted(`${root}/**/*.parquet`)}, hive_partitioning = true)`;
  const partsOf = async (root: string) =>
    (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".parquet")).sort();

  it("holds the single file's rows, a folder per billing period; FOCUS's rules hold; DuckDB prunes by billing_period and hyparquet reads every part", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-partitioned-"));
    const single = await write(join(dir, "single"), "file");
    expect(single.code, single.stdout).toBe(0);
    const written = await write(join(dir, "dataset"), "partitioned");
    expect(written.code, written.stdout).toBe(0);
    const root = join(dir, "dataset", "focus");
    expect(await partsOf(root)).toEqual(range.months.map((m) => `billing_period=${m}/part-00000.parquet`));
    // Nothing but the dataset is left in the report's folder: no staging folder.
    expect((await readdir(join(dir, "dataset"))).sort()).toEqual(["focus"]);

    await duck.run(`CREATE OR REPLACE VIEW pq AS SELECT * EXCLUDE (billing_period) FROM ${dataset(root)}`);
    await duck.run(
      `CREATE OR REPLACE VIEW one AS SELECT * FROM read_parquet(${quoted(join(dir, "single", "focus.parquet"))})`,
    );
    const total = await count("SELECT count(*) AS n FROM one");
    expect(total).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM pq")).toBe(total);
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM pq EXCEPT ALL SELECT * FROM one)")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM one EXCEPT ALL SELECT * FROM pq)")).toBe(0);
    expect(await broken("pq")).toEqual([]);
    // Each row sits in its billing period's folder.
    expect(
      await count(
        `SELECT count(*) AS n FROM ${dataset(root)} WHERE billing_period <> strftime(BillingPeriodStart AT TIME ZONE 'UTC', '%Y-%m')`,
      ),
    ).toBe(0);
    // A filter on billing_period reads that period's files only.
    const [plan] = await rows(
      `EXPLAIN ANALYZE SELECT count(*) FROM ${dataset(root)} WHERE billing_period = '${range.months[1]}'`,
    );
    expect(String(plan?.explain_value)).toMatch(/Total Files Read: 1\b/);
    // A second reader: every part, row for row as DuckDB reads it.
    let read = 0;
    for (const part of await partsOf(root)) {
      await duck.run(
        `CREATE OR REPLACE VIEW pq AS SELECT * FROM read_parquet(${quoted(join(root, part))}, hive_partitioning = false)`,
      );
      const header = (await rows("SELECT column_name FROM (DESCRIBE SELECT * FROM pq)")).map((r) =>
        String(r.column_name),
      );
      await sameInHyparquet(join(root, part), header);
      read += await count("SELECT count(*) AS n FROM pq");
    }
    expect(read).toBe(total);
    // The README's DuckDB recipe, as written, from the report's folder.
    const readme = await readFile(
      new URL("../../../packages/cost-report/README.md", import.meta.url),
      "utf8",
    );
    const recipe = /Reading the whole dataset at once[\s\S]*?```sql\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(recipe).toContain("read_parquet('focus/**/*.parquet', hive_partitioning = true)");
    const spend = await rows(
      recipe.replace("'focus/**/*.parquet'", quoted(`${root}/**/*.parquet`)).replace(/;\s*$/, ""),
    );
    expect([...new Set(spend.map((r) => r.billing_period))]).toEqual(range.months);
    const [sum] = await rows("SELECT round(sum(BilledCost), 2) AS spend FROM one");
    expect(spend.reduce((s, r) => s + Number(r.spend), 0)).toBeCloseTo(Number(sum?.spend), 1);
  });

  it("a team billed through its organisation, by day: the same rows as its single file, FOCUS's rules kept", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-team-"));
    const day = { granularity: "day", "billing-account-name": "" };
    const team = platform.tokens.teamViaOrg;
    expect((await write(join(dir, "single"), "file", day, team)).code).toBe(0);
    expect((await write(join(dir, "dataset"), "partitioned", day, team)).code).toBe(0);
    const root = join(dir, "dataset", "focus");
    expect(await partsOf(root)).toEqual(range.months.map((m) => `billing_period=${m}/part-00000.parquet`));
    await duck.run(`CREATE OR REPLACE VIEW pq AS SELECT * EXCLUDE (billing_period) FROM ${dataset(root)}`);
    await duck.run(
      `CREATE OR REPLACE VIEW one AS SELECT * FROM read_parquet(${quoted(join(dir, "single", "focus.parquet"))})`,
    );
    expect(await count("SELECT count(*) AS n FROM pq")).toBe(await count("SELECT count(*) AS n FROM one"));
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM pq EXCEPT ALL SELECT * FROM one)")).toBe(0);
    expect(await broken("pq")).toEqual([]);
    expect(await rows("SELECT DISTINCT BillingAccountType FROM pq")).toEqual([
      { BillingAccountType: "Team billed through an organisation" },
    ]);
  });

  it("a rerun replaces each period's folder whole (no stale part left); a run cut short leaves the previous files; a period that is not whole months is refused", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-rerun-"));
    expect((await write(dir, "partitioned")).code).toBe(0);
    const root = join(dir, "focus");
    const [first = ""] = await partsOf(root);
    // A part an earlier run (or another writer) left in a period's folder.
    await copyFile(join(root, first), join(root, first.replace("part-00000", "part-00007")));
    // An older month this run does not cover stays as it is.
    const older = join(root, "billing_period=2001-01");
    await mkdir(older);
    await copyFile(join(root, first), join(older, "part-00000.parquet"));
    expect((await write(dir, "partitioned")).code).toBe(0);
    expect(await partsOf(root)).toEqual([
      "billing_period=2001-01/part-00000.parquet",
      ...range.months.map((m) => `billing_period=${m}/part-00000.parquet`),
    ]);
    const perPeriod = async () =>
      rows(
        `SELECT billing_period, count(*) AS n FROM ${dataset(root)} WHERE billing_period <> '2001-01' GROUP BY ALL ORDER BY 1`,
      );
    const before = await perPeriod();
    const [single] = await rows(
      `SELECT count(*) AS n FROM ${dataset(root)} WHERE billing_period = '${range.months[0]}'`,
    );
    expect(Number(before[0]?.n)).toBe(Number(single?.n));
    const bytes = await readFile(join(root, `billing_period=${range.months[1]}`, "part-00000.parquet"));

    // Cut short: the usage list fails for good (a run cut after rows were written is the cost
    // report's own test: packages/cost-report/test/partitioned-dataset.test.ts).
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage*", status: 500, times: 50 },
    ]);
    const failed = await write(dir, "partitioned");
    expect(failed.code).not.toBe(0);
    expect(await readFile(join(root, `billing_period=${range.months[1]}`, "part-00000.parquet"))).toEqual(
      bytes,
    );
    expect(await perPeriod()).toEqual(before);
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
    await platform.reset();

    const refused = await write(dir, "partitioned", { start: range.start, end: `${range.months[1]}-14` });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/focus-layout.*partitioned writes whole billing periods/);
  });

  // What a stand-in platform may send an export, through the emulator's faults: each time the
  // dataset is read back, and the period before the run's (a complete month of an earlier run)
  // is as it was.
  describe("never replaces a period with less", () => {
    const before = (() => {
      const first = new Date(`${range.start}T00:00:00Z`);
      const day = new Date(first.getTime() - 86_400_000);
      return { month: day.toISOString().slice(0, 7), day: day.toISOString(), first: first.toISOString() };
    })();
    /** A dataset with the month before the run's, complete, as an earlier run left it. */
    const earlier = async (root: string) => {
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-earlier-"));
      expect((await write(dir, "partitioned")).code).toBe(0);
      const folder = join(root, `billing_period=${before.month}`);
      await mkdir(folder, { recursive: true });
      await copyFile(
        join(dir, "focus", `billing_period=${range.months[0]}`, "part-00000.parquet"),
        join(folder, "part-00000.parquet"),
      );
      const bytes = await readFile(join(folder, "part-00000.parquet"));
      return {
        intact: async () => {
          expect(await readdir(folder)).toEqual(["part-00000.parquet"]);
          expect(await readFile(join(folder, "part-00000.parquet"))).toEqual(bytes);
        },
      };
    };

    it("leaves out a bucket dated before the window, with a warning naming how many rows and which period; the dataset may be a link to another file system", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-outside-"));
      // The dataset on a mounted volume: /dev/shm is a file system of its own (a rename across fails).
      const volume = await mkdtemp(join("/dev/shm", "cwp-focus-volume-"));
      expect((await stat(volume)).dev).not.toBe((await stat(dir)).dev);
      await symlink(volume, join(dir, "focus"));
      const { intact } = await earlier(volume);
      // The trend's first bucket answered as the day before the window.
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { set: { "data.usage.0.window": { start: before.day, end: before.first } } },
        times: 100,
      });
      const day = { granularity: "day", "billing-account-name": "" };
      const result = await write(dir, "partitioned", day, platform.tokens.teamViaOrg);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(
          `::warning::The platform sent \\d+ FOCUS rows of billing period ${before.month}, which this run was not asked for \\(${range.months.join(", ")}\\): left out`,
        ),
      );
      await intact();
      expect((await partsOf(volume)).filter((p) => !p.includes(before.month))).toEqual(
        range.months.map((m) => `billing_period=${m}/part-00000.parquet`),
      );
      expect(await readdir(dir)).toEqual(["focus"]);
      expect((await readdir("/dev/shm")).filter((f) => f.includes("staging"))).toEqual([]);
    });

    it("writes nothing and fails, naming the list, when a list the export reads goes round", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-loop-"));
      const { intact } = await earlier(join(dir, "focus"));
      await projectListGoingRound(platform);
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::GET \/v1\/projects .*could not be read whole, so nothing was written/,
      );
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
      expect(await readdir(dir)).toEqual(["focus"]);
    });

    it("stops, naming the entry, on a usage entry with neither window nor timestamp", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-timeless-"));
      const { intact } = await earlier(join(dir, "focus"));
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { omit: ["data.usage.1.window", "data.usage.1.timestamp"] },
        times: 100,
      });
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::The platform's usage entry 2 has neither a window nor a timestamp/,
      );
      expect(result.stdout).not.toMatch(/Invalid time value/);
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
    });
  });
});
