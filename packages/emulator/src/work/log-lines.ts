import type { WorkLogLine } from "../model/work-records.js";
/**
 * Spreads lines evenly between two times (the outcome's lines or generated ones), `perInstant`
 * lines sharing each timestamp (1 unless an outcome asks for more).
 */
export function spread(
  lines: readonly string[],
  from: number,
  to: number,
  containerId: string,
  perInstant = 1,
): WorkLogLine[] {
  const instants = Math.ceil(lines.length / perInstant);
  const step = instants > 1 ? (to - from) / instants : 0;
  return lines.map((text, i) => ({
    at: Math.round(from + step * Math.floor(i / perInstant)),
    containerId,
    text,
  }));
}

/** Drops what was not printed by `now` and appends a closing line (an abort). */
export function cutAt(
  lines: WorkLogLine[],
  now: number,
  closing: string,
  containerId: string,
): WorkLogLine[] {
  return [...lines.filter((l) => l.at <= now), { at: now, containerId, text: closing }];
}
