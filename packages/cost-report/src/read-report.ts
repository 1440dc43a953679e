import type { CwpClient } from "@cwp/client";
import { type Filters, type Granularity, UsageReader } from "./collect.js";
import type { GroupBy } from "./group.js";
import type { Period } from "./period.js";
import { CSV_HEADER } from "./render/csv.js";
import { FocusCsv } from "./render/focus/csv-sink.js";
import type { FocusSink } from "./render/focus/rows.js";
import { LineFile } from "./render/line-file.js";
import { type Collected, shownKeys } from "./report.js";
import { TrendFold } from "./trend.js";

// Everything the report reads, in as few waits as the reads allow: reads that do not depend on
// each other go out together (each costs the platform's latency). The names, both periods' totals
// and the trend go out at once; the credit balance and the invoices wait for the current totals
// (they say whose billing this is, and whether it has BYOC clusters). The first read that fails
// ends the others, so a failed report stops reading, and saying where it is, at once.

export interface ReadOptions {
  period: Period;
  granularity: Granularity;
  groupBy: GroupBy;
  filters: Filters;
  compare: boolean;
  top: number;
  /** Where report.csv, focus.csv and focus.parquet go, when asked for: written while the trend is read. */
  csvPath: string | undefined;
  focusPath: string | undefined;
  focusParquetPath: string | undefined;
  /**
   * The FOCUS Parquet as one file, or as a folder partitioned by billing period: these periods'
   * starts (ms), each of which gets its folder.
   */
  focusPartitions: readonly number[] | undefined;
  /** The FOCUS dataset's BillingAccountName, when given. */
  billingAccountName: string | undefined;
  signal: AbortSignal;
  deadline: number;
  progress: (text: string) => void;
  /** Told of what the files leave out (rows of a period the run was not asked for). */
  warn: (message: string) => void;
}

export async function readReport(client: CwpClient, o: ReadOptions): Promise<Collected> {
  const failed = new AbortController();
  const reader = new UsageReader(client, { ...o, signal: AbortSignal.any([o.signal, failed.signal]) });
  const csv = o.csvPath === undefined ? undefined : LineFile.open(o.csvPath);
  const focus: FocusSink[] = [];
  try {
    await csv?.write(CSV_HEADER);
    if (o.focusPath !== undefined) focus.push(await FocusCsv.open(o.focusPath));
    if (o.focusParquetPath !== undefined)
      focus.push(await openFocusParquet(o.focusParquetPath, o.focusPartitions, o.warn));
    const names = reader.names(focus.length > 0);
    // The FOCUS dataset's InvoiceId: the invoices of the period, read beside the names.
    const invoiced = focus.length > 0 ? reader.invoices(o.period) : Promise.resolve([]);
    const currentRead = reader.totals(o.period, names);
    const previousRead = o.compare ? reader.totals(o.period.previous, names) : undefined;
    // The trend is folded bucket by bucket: its CSV and FOCUS rows are written as it is read, and
    // only the buckets' totals and the shown groups stay for the other formats.
    const trend = new TrendFold({
      granularity: o.granularity,
      groupBy: o.groupBy,
      context: Promise.all([names, currentRead, invoiced]).then(([groupNames, current, invoices]) => ({
        names: groupNames,
        projectIds: reader.projectIds,
        invoices: new Map(invoices.map((invoice) => [invoice.start * 1000, invoice.id])),
        keep: shownKeys(current, o.top),
        currency: reader.currency,
        accountId: String(reader.scope?.teamId ?? "billing-customer"),
        accountName: o.billingAccountName,
        teamScoped: reader.scope !== undefined,
      })),
      csv,
      focus,
    });
    const [current, previous, credit, clusters] = await Promise.all([
      currentRead,
      previousRead,
      currentRead.then(() => reader.credit()),
      currentRead.then((totals) => reader.clusters(o.period, totals)),
      reader
        .trend(o.period, o.granularity, trend.level, (part) => trend.add(part))
        .then(() => trend.finish()),
      // Awaited here too, so that their failure ends the other reads at once.
      names,
      invoiced,
    ]);
    await csv?.close();
    for (const file of focus) await file.close();
    return {
      currency: reader.currency,
      scope: reader.scope,
      current,
      previous,
      trend: trend.points,
      credit,
      clusters,
      requests: reader.requests,
    };
  } catch (error) {
    failed.abort();
    await csv?.discard();
    for (const file of focus) await file.discard();
    throw error;
  }
}

/** focus.parquet's writers are loaded only for a report that asks for them. */
async function openFocusParquet(
  path: string,
  partitions: readonly number[] | undefined,
  warn: (message: string) => void,
): Promise<FocusSink> {
  const { FocusParquet, PartitionedFocusParquet } = await import("./render/focus/parquet-sinks.js");
  return partitions === undefined
    ? FocusParquet.create(path)
    : PartitionedFocusParquet.open(path, partitions, warn);
}
