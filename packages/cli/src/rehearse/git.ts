import { execFileSync } from "node:child_process";

/** What git prints in the folder `dir` (trimmed; "" for nothing), or undefined where it fails (no clone, no such commit). */
export function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", ["-C", dir, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  } catch {
    return undefined;
  }
}
