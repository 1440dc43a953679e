import { ID_PATTERN } from "@cwp/client";
import { z } from "zod";
import { InputError, InputErrors } from "./input-error.js";
import { booleanInput, durationInput, optionalText } from "./parsers.js";
import { type RawInputs, readInputs } from "./read.js";

/** The inputs every action has (architecture: "Inputs shared by every action"). */
export const sharedInputs = {
  "api-token": optionalText(),
  "api-url": optionalText(),
  "team-id": optionalText().pipe(
    z
      .string()
      .regex(ID_PATTERN, "must be a team id (letters and digits in groups joined by hyphens)")
      .optional(),
  ),
  wait: booleanInput(true),
  timeout: durationInput("30m"),
  "abort-on-cancel": booleanInput(true),
};

export interface Connection {
  token: string;
  baseUrl: string;
  teamId: string | undefined;
  /** Plain http to another machine: the token crosses the network readable. */
  unencrypted: boolean;
}

type ConnectionInputs = {
  "api-token"?: string | undefined;
  "api-url"?: string | undefined;
  "team-id"?: string | undefined;
};

/** The token and URL a step uses: its inputs, or else the environment. */
const given = (config: ConnectionInputs) => ({
  token: config["api-token"] ?? process.env.CWP_API_TOKEN?.trim(),
  baseUrl: config["api-url"] ?? process.env.CWP_API_URL?.trim(),
});

/** What is wrong with the token and the URL, each said. */
function connectionErrors(config: ConnectionInputs): InputError[] {
  const { token, baseUrl } = given(config);
  return [tokenError(token), urlError(baseUrl)].filter((e): e is InputError => e !== undefined);
}

/**
 * The token and URL, from the inputs or the `CWP_API_TOKEN` / `CWP_API_URL` environment. What is
 * wrong with both is said at once: a user setting up fixes them in one go.
 */
export function connection(config: ConnectionInputs): Connection {
  const errors = connectionErrors(config);
  if (errors.length > 1) throw new InputErrors(errors);
  if (errors[0]) throw errors[0];
  const { token, baseUrl } = given(config) as { token: string; baseUrl: string };
  const url = new URL(baseUrl);
  return {
    token,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    teamId: config["team-id"],
    unencrypted: url.protocol === "http:" && !isLoopback(url.hostname),
  };
}

/**
 * The inputs parsed, or every bad one said at once: what is wrong with the token and the URL with
 * the rest (read by their own parsers here; `connection` checks them again once the inputs parse),
 * so a user fixes all in one go.
 */
export function readInputsAndConnection<S extends z.ZodObject>(schema: S, raw: RawInputs): z.output<S> {
  try {
    return readInputs(schema, raw);
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
    const given = (name: "api-token" | "api-url") => sharedInputs[name].parse(raw(name));
    throw new InputErrors([
      ...error.errors,
      ...connectionErrors({ "api-token": given("api-token"), "api-url": given("api-url") }),
    ]);
  }
}

function tokenError(token: string | undefined): InputError | undefined {
  if (!token)
    return new InputError("api-token", "is required: set it, or the CWP_API_TOKEN environment variable");
  // It travels as a header: a line break or a character outside Latin-1 cannot, and the request
  // would fail after the step had begun, as an outcome it could not know.
  if (!HEADER_VALUE.test(token))
    return new InputError(
      "api-token",
      "must be text an HTTP header can carry: no line breaks or control characters, only Latin-1 characters (was it pasted with something else?)",
    );
  return undefined;
}

function urlError(baseUrl: string | undefined): InputError | undefined {
  if (!baseUrl)
    return new InputError("api-url", "is required: set it, or the CWP_API_URL environment variable");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return new InputError("api-url", "must be an http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return new InputError("api-url", "must be an http or https URL");
  // Paths are appended to it: a query or a fragment would swallow them.
  if (url.search !== "" || url.hash !== "" || baseUrl.includes("?") || baseUrl.includes("#"))
    return new InputError("api-url", "must be the API's base URL, without a query (?...) or fragment (#...)");
  // Every path already starts with /v1: a URL ending in it would ask for /v1/v1/...
  if (/\/v1\/*$/.test(url.pathname))
    return new InputError(
      "api-url",
      "must be the API's base URL, without the /v1 at its end (every path, /v1/projects and the like, is added to it)",
    );
  return undefined;
}

/** Visible Latin-1 characters, spaces and tabs: what an HTTP header value may hold. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

/** This machine: `localhost` (and names under it), 127.0.0.0/8 and `[::1]`. */
export const isLoopback = (hostname: string) =>
  hostname === "localhost" ||
  hostname.endsWith(".localhost") ||
  /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
  hostname === "[::1]";
