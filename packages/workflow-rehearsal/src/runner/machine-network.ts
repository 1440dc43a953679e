// What a script or action the rehearsal runs keeps of the environment `cwp rehearse` runs in,
// besides the clock (machine-clock.ts): the machine's network settings, as a runner's steps get
// its machine's. On a machine that reaches the registry through a proxy or a TLS-inspecting
// gateway, `npm ci` in a step needs them as it does in the user's shell. Nothing else of the user's
// environment: their tokens and cloud credentials stay theirs (a step gets secrets only as
// --secret gives them).

/** The proxies, read in either case as curl, npm and undici read them. */
const PROXIES = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY"];

/** The network settings a step gets, in the case they are named here (a proxy in lower case too). */
export const NETWORK_VARIABLES: readonly string[] = [
  ...PROXIES,
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
  "LANG",
  "LC_ALL",
];

/** The network settings `env` has (NETWORK_VARIABLES, and the proxies' lower-case names), by name. */
export function machineNetwork(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const names = [...NETWORK_VARIABLES, ...PROXIES.map((name) => name.toLowerCase())];
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
