import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { mkdir, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ReportOptionError } from "../../errors.js";
import { FocusParquet } from "./parquet-sink.js";
import type { FocusCharge, FocusOwner, FocusPeriod } from "./parts.js";
import type { FocusSink } from "./rows.js";

// The FOCUS dataset as a warehouse keeps it: Hive-style folders, one per billing period
// (`billing_period=YYYY-MM/`), each with one or more Parquet parts, as the clouds deliver FOCUS. A
// run replaces the folders of the billing periods it covers, whole, and leaves the others as
// they are: each period is written beside the dataset (a staging folder next to it), then renamed
// into place once every part is whole, so a run cut short leaves the previous files as they were
// and a rerun leaves no stale part behind.
//
// Rows come in time order, so one period's writer is open at a time: a row of another period
// closes it (its part is whole) and opens that period's next part. A period met again later (rows
// out of order) gets a part of its own, never a rewrite. A row of a period the run was not asked
// for (the platform may send a bucket from before the window) is left out, with a warning: it
// would otherwise replace that period's folder with one bucket.

/** `billing_period=2026-05`: the partition of a billing period starting at `start` (ms, UTC). */
export const partitionOf = (start: number) => `billing_period=${new Date(start).toISOString().slice(0, 7)}`;

export class PartitionedFocusParquet implements FocusSink {
  /** Parts written per partition. */
  readonly #parts = new Map<string, number>();
  #open: { partition: string; start: number | undefined; sink: FocusParquet } | undefined;
  /** Parts being closed (their last row group written, their footer, their rename). */
  #closing: Promise<void>[] = [];
  /** Rows left out, by the partition they would have replaced: the warning's figures. */
  readonly #outside = new Map<string, number>();
  /** The period (start, ms) of the row before and whether it was asked for: checked on a change. */
  #last: { start: number; asked: boolean } | undefined;
  readonly #asked: Set<string>;

  private constructor(
    private readonly root: string,
    private readonly staging: string,
    /** Every billing period of the range, each of which gets a folder, empty of rows or not. */
    private readonly partitions: readonly string[],
    private readonly warn: (message: string) => void,
  ) {
    this.#asked = new Set(partitions);
  }

  /**
   * The dataset at `root` (a folder), for the billing periods starting at `starts` (ms, UTC);
   * `warn` hears of rows left out.
   */
  static async open(
    root: string,
    starts: readonly number[],
    warn: (message: string) => void,
  ): Promise<PartitionedFocusParquet> {
    // Beside the dataset's real folder, on its file system (a rename moves it; `root` may be a
    // link to a mounted volume), and outside it, so that a reader of `root/**/*.parquet` never
    // sees a part being written.
    const real = await realFolder(root);
    // Said before anything is read: found only when the periods are moved into place, it cost the
    // whole read and ended as "EEXIST ... mkdir".
    if (
      await stat(real).then(
        (found) => !found.isDirectory(),
        () => false,
      )
    )
      // An option's fault (the folder the report goes to), so each host names its own input.
      throw new ReportOptionError(
        "dir",
        `${root} is a file, where the FOCUS dataset's folder goes: move it away, or write the report to another folder (nothing was read or written)`,
      );
    const staging = join(dirname(real), `.${basename(real)}-staging-${randomBytes(6).toString("hex")}`);
    await mkdir(staging, { recursive: true });
    return new PartitionedFocusParquet(real, staging, starts.map(partitionOf), warn);
  }

  row(
    period: FocusPeriod,
    charge: FocusCharge,
    owner: FocusOwner,
    resourceId: string | null,
    cost: number,
    quantity: number,
  ): void {
    // By the period's start, a number: its folder's name is made only when the period changes.
    const start = period.billingStart;
    if (this.#last?.start !== start) {
      this.#last = { start, asked: this.#asked.has(partitionOf(start)) };
      if (this.#last.asked && this.#open?.start !== start) this.#switchTo(partitionOf(start), start);
    }
    if (!this.#last.asked) {
      const partition = partitionOf(start);
      this.#outside.set(partition, (this.#outside.get(partition) ?? 0) + 1);
      return;
    }
    this.#open?.sink.row(period, charge, owner, resourceId, cost, quantity);
  }

  async drained(): Promise<void> {
    await this.#open?.sink.drained();
    // A part being closed holds its last row groups (compressing, then written): one may finish
    // beside the next part's rows, a second waits, so memory holds at most two parts' groups.
    while (this.#closing.length > 1) await this.#closing.shift();
  }

  async close(): Promise<void> {
    for (const [partition, rows] of this.#outside)
      this.warn(
        `The platform sent ${rows} FOCUS row${rows === 1 ? "" : "s"} of ${partition.replace("billing_period=", "billing period ")}, which this run was not asked for (${this.partitions.map((p) => p.replace("billing_period=", "")).join(", ")}): left out, and that period's folder left as it was.`,
      );
    this.#closeOpen();
    await Promise.all(this.#closing.splice(0));
    // A billing period without a row still gets its folder: one part of no rows, which replaces
    // what an earlier run wrote for it.
    for (const partition of this.partitions)
      if (!this.#parts.has(partition)) {
        this.#switchTo(partition);
        this.#closeOpen();
      }
    await Promise.all(this.#closing.splice(0));
    await mkdir(this.root, { recursive: true });
    for (const partition of this.#parts.keys()) {
      const target = join(this.root, partition);
      const old = join(this.staging, `${partition}.old`);
      if (await exists(target)) await rename(target, old);
      await rename(join(this.staging, partition), target);
    }
    await rm(this.staging, { recursive: true, force: true });
  }

  async discard(): Promise<void> {
    const open = this.#open;
    this.#open = undefined;
    await open?.sink.discard();
    await Promise.allSettled(this.#closing.splice(0));
    await rm(this.staging, { recursive: true, force: true });
  }

  #switchTo(partition: string, start?: number): void {
    this.#closeOpen();
    const part = this.#parts.get(partition) ?? 0;
    this.#parts.set(partition, part + 1);
    const folder = join(this.staging, partition);
    // Made before the part's file is opened (at once, below); a few times a run, once per part.
    mkdirSync(folder, { recursive: true });
    const sink = FocusParquet.create(join(folder, `part-${String(part).padStart(5, "0")}.parquet`));
    this.#open = { partition, start, sink };
  }

  #closeOpen(): void {
    const open = this.#open;
    this.#open = undefined;
    if (open) this.#closing.push(open.sink.close());
  }
}

/** The folder `root` names, through links: the dataset itself, or the folder it will be made in. */
async function realFolder(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return join(await realpath(dirname(root)), basename(root));
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
