// The Node.js our packages need (engines in package.json: undici 8 needs 22.19). On an older one,
// undici dies while loading with a stack trace that names nothing useful ("reading 'bind'"), so
// each package checks first and says what is needed in one sentence. Only Node's own modules
// here: this must load on any Node.
import { existsSync } from "node:fs";

const NEEDED = { major: 22, minor: 19 };

/** Throws one sentence naming the package and both versions when this Node is too old for it. */
export function requireNode(packageName: string, version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > NEEDED.major || (major === NEEDED.major && minor >= NEEDED.minor)) return;
  // Loaded from a clone of the repository (packages/NAME/dist/), whose set-up brought Node 24.
  const inClone = existsSync(new URL("../../../pnpm-workspace.yaml", import.meta.url));
  const how = inClone
    ? "inside this clone, run it with the clone's Node 24: `pnpm exec node ...` (after the README's set-up)."
    : "install Node.js 24 (https://nodejs.org, or `nvm install 24`) and run it with that.";
  throw new Error(
    `${packageName} needs Node.js ${NEEDED.major}.${NEEDED.minor} or later, and this is Node.js ${version}: ${how}`,
  );
}
