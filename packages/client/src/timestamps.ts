/**
 * Epoch milliseconds from any timestamp the platform writes: ISO 8601 (also with a space instead
 * of `T`), or Unix seconds as a number or a string of digits. Undefined when there is none. A
 * date-time that names no offset is UTC, the platform's time, as a date alone is: JavaScript would
 * read it in the machine's time zone, so the same input would mean another hour on a laptop than
 * on a runner.
 */
export function parseTimestamp(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value === "number") return value * 1000;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const iso = /^\d{4}-\d{2}-\d{2} \d/.test(value) ? value.replace(" ", "T") : value;
  const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso);
  const ms = Date.parse(zoneless ? `${iso}Z` : iso);
  return Number.isNaN(ms) ? undefined : ms;
}
