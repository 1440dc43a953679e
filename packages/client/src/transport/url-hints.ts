// The usual reasons a connection fails at once, said where the user can act on them: the API URL's
// scheme does not match what the server speaks.

/** A hint for a failed connection to `origin` with these error codes, or "" without one. */
export function schemeHint(origin: string, code: string | undefined, answered: boolean): string {
  const url = new URL(origin);
  // A TLS client reading a plain-http answer sees a record header that is no TLS version.
  if (url.protocol === "https:" && code === "ERR_SSL_WRONG_VERSION_NUMBER")
    return `: the server there speaks plain http, not https; is the API URL http://${url.host}?`;
  // A TLS server given plain http closes the connection without a word.
  if (url.protocol === "http:" && !answered && (code === "UND_ERR_SOCKET" || code === "ECONNRESET"))
    return `: the server closed the connection without answering; if it speaks https, the API URL is https://${url.host}`;
  return "";
}
