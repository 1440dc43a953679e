// The Node.js our packages need (engines in package.json: undici 8 needs 22.19). On an older one,
// undici dies while loading with a stack trace that names nothing useful ("reading 'bind'"), so
// each package checks first and says what is needed in one sentence. No import here: this must
// load on any Node.

const NEEDED = { major: 22, minor: 19 };

/** Throws one sentence naming the package and both versions when this Node is too old for it. */
export function requireNode(packageName: string, version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > NEEDED.major || (major === NEEDED.major && minor >= NEEDED.minor)) return;
  throw new Error(
    `${packageName} needs Node.js ${NEEDED.major}.${NEEDED.minor} or later, and this is Node.js ${version}: install Node.js 24 (https://nodejs.org, or \`nvm install 24\`) and run it with that.`,
  );
}
