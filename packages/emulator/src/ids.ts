import { createHash } from "node:crypto";

// Identifiers: deterministic for a seed and a name, so a reset world has the same ids.

const hex = (seed: number, name: string) => createHash("sha256").update(`${seed}:${name}`).digest("hex");

/** A permanent 24-hex uid (spec 1.6). */
export const uidFor = (seed: number, name: string) => hex(seed, name).slice(0, 24);

/** A UUID-shaped id, as job runs have. */
export function uuidFor(seed: number, name: string): string {
  const h = hex(seed, name);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ADJECTIVES = [
  "joyous",
  "brave",
  "calm",
  "eager",
  "gentle",
  "lively",
  "proud",
  "quiet",
  "swift",
  "witty",
];
const NOUNS = ["view", "river", "meadow", "summit", "harbor", "forest", "canyon", "breeze", "field", "delta"];

/** A slug such as `joyous-view-6290`, as builds have. */
export function slugFor(seed: number, name: string): string {
  const n = Number.parseInt(hex(seed, name).slice(0, 8), 16);
  return `${ADJECTIVES[n % 10]}-${NOUNS[Math.floor(n / 10) % 10]}-${1000 + (Math.floor(n / 100) % 9000)}`;
}

/** A short hex id with a prefix, for template runs, restores and integrations. */
export const shortIdFor = (prefix: string, seed: number, name: string) =>
  `${prefix}${hex(seed, name).slice(0, 16)}`;
