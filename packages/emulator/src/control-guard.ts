import type { IncomingMessage } from "node:http";

// The control plane (`/_emulator/*`) has no token: whoever reaches it resets the world or scripts
// faults. A browser reaches a server on loopback too: a page of another site POSTs to it (its
// `Origin` is that site), or a name the page's site controls is rebound to 127.0.0.1 (DNS
// rebinding: the request's `Host` is that name). So the control plane answers only requests
// addressed to this machine, or to a name the user allowed, and none sent by a page elsewhere.

/** This machine's names: `localhost` (and names under it), 127.0.0.0/8 and `[::1]`. */
const isLoopback = (hostname: string) =>
  /^(?:localhost|.+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i.test(hostname);

const hostnameOf = (authority: string) => {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

const allowedIn = (allowedHosts: readonly string[]) => (hostname: string | undefined) =>
  hostname !== undefined && (isLoopback(hostname) || allowedHosts.includes(hostname));

/**
 * Why the platform API (`/v1/*`) refuses this request, or undefined: a name rebound to 127.0.0.1
 * by a web page's site must not reach the API either (with the tokens a page could guess, or read).
 */
export function apiRefusal(req: IncomingMessage, allowedHosts: readonly string[]): string | undefined {
  if (allowedIn(allowedHosts)(hostnameOf(req.headers.host ?? ""))) return undefined;
  return "the emulator answers only requests to this machine (localhost, 127.0.0.1, [::1]) or to a name given with --control-host";
}

/** Why the control plane refuses this request, or undefined: it may answer. */
export function controlRefusal(req: IncomingMessage, allowedHosts: readonly string[]): string | undefined {
  const allowed = allowedIn(allowedHosts);
  const host = hostnameOf(req.headers.host ?? "");
  if (!allowed(host))
    return "the control plane answers only requests to this machine (localhost, 127.0.0.1, [::1]) or to a name given with --control-host";
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let from: string | undefined;
    try {
      from = new URL(origin).hostname.toLowerCase();
    } catch {
      from = undefined;
    }
    if (!allowed(from)) return "the control plane answers no request a web page of another site sends";
  }
  return undefined;
}

/** Whether binding to `host` leaves this machine: the control plane is then reachable from others. */
export const bindsBeyondLoopback = (host: string) => !isLoopback(host) && host !== "::1";
