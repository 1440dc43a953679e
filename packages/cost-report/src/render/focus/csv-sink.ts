import { csvCell, csvLine } from "../csv.js";
import { LineFile } from "../line-file.js";
import { columnsOf, FOCUS_COLUMNS, type FocusValue, type SharedPart } from "./columns.js";
import type { FocusParts } from "./parts.js";
import type { FocusSink } from "./rows.js";

// focus.csv. A row is written in pieces: the parts it shares with many rows (its period, charge and
// owner) are escaped and encoded once, its amounts are written digit by digit, and only its
// resource id is its own text (ResourceName, after it, is empty in every row). Amounts need no escaping: decimal text never does.

const COMMA = Buffer.from(",");
const types = new Map(FOCUS_COLUMNS.map((c) => [c.name, c.type]));

/** A date-time as FOCUS writes it: ISO 8601 in UTC to the second (FOCUS 1.2 DateTimeFormat). */
export const focusDateTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const cellText = (column: string, value: FocusValue) =>
  value === null ? "" : types.get(column) === "datetime" ? focusDateTime(value as number) : String(value);

/** How each part sits in a line: between commas, or last. */
const FRAMES: Record<SharedPart, [string, string]> = {
  period: [",", ","],
  charge: ["", ","],
  owner: [",", "\n"],
};

export class FocusCsv implements FocusSink {
  /** Each shared part's cells, escaped, joined and encoded with the commas around them. */
  readonly #encoded = new WeakMap<FocusParts, Uint8Array>();

  private constructor(private readonly file: LineFile) {}

  static async open(path: string): Promise<FocusCsv> {
    const file = LineFile.open(path);
    await file.write(csvLine(FOCUS_COLUMNS.map((c) => c.name)));
    return new FocusCsv(file);
  }

  row(
    period: FocusParts<"period">,
    charge: FocusParts<"charge">,
    owner: FocusParts<"owner">,
    resourceId: string | null,
    cost: number,
    quantity: number,
  ): void {
    const { file } = this;
    // BilledCost, EffectiveCost, ListCost, ContractedCost: one amount (see parts.ts).
    file.decimal(cost);
    file.bytes(COMMA);
    file.decimal(cost);
    file.bytes(COMMA);
    file.decimal(cost);
    file.bytes(COMMA);
    file.decimal(cost);
    file.bytes(this.#cells(period));
    file.bytes(this.#cells(charge));
    // PricingQuantity, ConsumedQuantity: one quantity.
    file.decimal(quantity);
    file.bytes(COMMA);
    file.decimal(quantity);
    file.bytes(COMMA);
    if (resourceId !== null) file.text(csvCell(resourceId));
    // ResourceName: empty (null) in every row.
    file.bytes(COMMA);
    file.bytes(this.#cells(owner));
  }

  drained(): Promise<void> {
    return this.file.drained();
  }

  close(): Promise<void> {
    return this.file.close();
  }

  discard(): Promise<void> {
    return this.file.discard();
  }

  #cells(parts: FocusParts): Uint8Array {
    let bytes = this.#encoded.get(parts);
    if (!bytes) {
      const [before, after] = FRAMES[parts.part];
      const cells = columnsOf(parts.part).map((c, i) => csvCell(cellText(c.name, parts.values[i] ?? null)));
      bytes = Buffer.from(`${before}${cells.join(",")}${after}`);
      this.#encoded.set(parts, bytes);
    }
    return bytes;
  }
}
