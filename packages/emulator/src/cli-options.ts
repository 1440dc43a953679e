import { pageShapes } from "./settings.js";

// The emulator's command-line options, apart from what runs it: `cwp` lists them as the flags of
// `cwp emulator` at every start, and loads the emulator itself only when that command runs.

export const EMULATOR_OPTIONS = {
  host: { type: "string", default: "127.0.0.1", description: "address to bind (keep it on loopback)" },
  port: { type: "string", default: "4010", description: "port; 0 picks a free one" },
  // No default here: a seed given (any, 1 too) makes the tokens known in advance.
  seed: {
    type: "string",
    description:
      "the seeded world's ids, uids and billing derive from it (default 1); its API tokens are random at each start unless --seed is given",
  },
  speed: { type: "string", default: "1", description: "virtual seconds per real second; 0 stops time" },
  "rate-limit": { type: "string", default: "1000", description: "requests per account per hour" },
  scale: { type: "string", description: "TEAMSxPROJECTSxRESOURCES, a larger organisation (e.g. 50x20x50)" },
  "start-at": { type: "string", description: "ISO 8601 time the virtual clock starts at (default now)" },
  "log-page-cap": { type: "string", description: "at most N log lines per answer, whatever lineLimit asks" },
  "page-shape": {
    type: "string",
    default: "whole",
    description: `how lists are paged: ${pageShapes.join(", ")} (pages of half what was asked, of varying length below it, an empty page before each, or a list that gains an entry at its head between pages)`,
  },
  world: {
    type: "string",
    description:
      "a YAML or JSON file describing your own projects, services, jobs, addons, backups and templates, laid over the seeded world",
  },
  "control-host": {
    type: "string",
    description:
      "a name besides localhost the API (/v1/*) and the control plane (/_emulator/*) answer to, e.g. a container's",
  },
} as const;
