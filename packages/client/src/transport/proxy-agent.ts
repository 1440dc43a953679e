import type { EnvHttpProxyAgent as EnvHttpProxyAgentType } from "undici";
import EnvHttpProxyAgentClass from "undici/lib/dispatcher/env-http-proxy-agent.js";

// The one class of undici the client uses, from its own file: undici's index loads fetch,
// WebSocket, EventSource, its caches and mocks as it is imported, at every start of every action
// and command (with @actions/http-client and @actions/github patched alike, pnpm-workspace.yaml:
// each action bundle 2.9 MB -> 2.3 MB). undici 8 has no `exports` map, so the file is public to
// Node; its version is pinned in package.json.
export const EnvHttpProxyAgent: typeof EnvHttpProxyAgentType = EnvHttpProxyAgentClass;
