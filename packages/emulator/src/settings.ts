import { z } from "zod";

/** The most lines one log answer holds, unless a page cap (`logPageCap`) is lower. */
export const MAX_LINE_LIMIT = 10_000;

// How the emulator answers, beyond what the spec fixes: set at start (`--log-page-cap`) and through
// POST /_emulator/settings; a reset restores the values it started with.

/** How lists are paged (paginate.ts says what each shape serves). */
export const pageShapes = ["whole", "split", "short", "empty-between", "growing"] as const;
export type PageShape = (typeof pageShapes)[number];

export interface Settings {
  /**
   * The most log lines one answer holds, below what `lineLimit` asks: the platform may cap a page
   * (beyond-the-seed §5). Unset: only `MAX_LINE_LIMIT`.
   */
  logPageCap: number | undefined;
  /** How every list other than logs is paged: "whole" pages hold as many entries as asked. */
  pageShape: PageShape;
}

export const settingsSchema = z.strictObject({
  /** `null` removes the cap. */
  logPageCap: z.number().int().min(1).max(MAX_LINE_LIMIT).nullable().optional(),
  pageShape: z.enum(pageShapes).optional(),
});

export function applySettings(settings: Settings, change: z.output<typeof settingsSchema>): void {
  if (change.logPageCap !== undefined) settings.logPageCap = change.logPageCap ?? undefined;
  if (change.pageShape !== undefined) settings.pageShape = change.pageShape;
}
