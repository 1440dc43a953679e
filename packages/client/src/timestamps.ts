/**
 * Epoch milliseconds from any timestamp the platform writes: ISO 8601 (also with a space instead
 * of `T`), or Unix seconds as a number or a string of digits. Undefined when there is none.
 */
export function parseTimestamp(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value === "number") return value * 1000;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2} \d/.test(value) ? value.replace(" ", "T") : value);
  return Number.isNaN(ms) ? undefined : ms;
}
