// Which network failures prove that the request never reached the platform. Only those make it
// safe to send again an operation that starts work.

const NEVER_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  // A TLS handshake that failed: no request was sent over it.
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION",
  "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE",
]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function codesOf(error: unknown, seen = new Set<unknown>()): string[] {
  if (typeof error !== "object" || error === null || seen.has(error)) return [];
  seen.add(error);
  const own = (error as { code?: unknown }).code;
  const nested = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  return [...(typeof own === "string" ? [own] : []), ...nested.flatMap((e) => codesOf(e, seen))];
}

export interface NetworkFailure {
  /** The request cannot have reached the platform. */
  neverSent: boolean;
  timedOut: boolean;
  code: string | undefined;
}

export function classifyNetworkError(error: unknown): NetworkFailure {
  const codes = codesOf(error);
  return {
    // An AggregateError (several addresses tried) is only "never sent" when every attempt was.
    neverSent: codes.length > 0 && codes.every((c) => NEVER_CONNECTED.has(c)),
    timedOut: codes.some((c) => TIMEOUTS.has(c)),
    code: codes[0],
  };
}
