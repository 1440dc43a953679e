// Whether a version is older than another, as addon versions are written: numbers separated by
// dots ("16.4", "7.2.5"), maybe followed by a label ("7.2-alpine"). The platform documents no
// format, so what does not start with a number is never called older: only a comparison that is
// sure refuses a step.

/** The leading numbers of a version ("16.4" → [16, 4], "7.2-alpine" → [7, 2]); none: undefined. */
function numbers(version: string): number[] | undefined {
  const match = /^v?(\d+(?:\.\d+)*)/.exec(version.trim());
  return match?.[1]?.split(".").map(Number);
}

/** True when `target` is surely older than `current` (15.7 against 16.4; 16.4 against 16.10). */
export function isOlder(target: string, current: string): boolean {
  const [a, b] = [numbers(target), numbers(current)];
  if (!a || !b) return false;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x !== y) return x < y;
  }
  return false;
}
