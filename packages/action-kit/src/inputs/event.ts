import { readFileSync } from "node:fs";

/** The workflow event's payload (GITHUB_EVENT_PATH), or {} when there is none or it is unreadable. */
export function eventPayload(): Record<string, unknown> {
  const file = process.env.GITHUB_EVENT_PATH;
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}
