import { ID_PATTERN } from "@cwp/client";
import { z } from "zod";
import { InputError } from "./input-error.js";
import { booleanInput, durationInput, optionalText } from "./parsers.js";

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
}

/** The token and URL, from the inputs or the `CWP_API_TOKEN` / `CWP_API_URL` environment. */
export function connection(config: {
  "api-token"?: string | undefined;
  "api-url"?: string | undefined;
  "team-id"?: string | undefined;
}): Connection {
  const token = config["api-token"] ?? process.env.CWP_API_TOKEN?.trim();
  if (!token)
    throw new InputError("api-token", "is required: set it, or the CWP_API_TOKEN environment variable");
  const baseUrl = config["api-url"] ?? process.env.CWP_API_URL?.trim();
  if (!baseUrl)
    throw new InputError("api-url", "is required: set it, or the CWP_API_URL environment variable");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InputError("api-url", "must be an http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new InputError("api-url", "must be an http or https URL");
  // Paths are appended to it: a query or a fragment would swallow them.
  if (url.search !== "" || url.hash !== "" || baseUrl.includes("?") || baseUrl.includes("#"))
    throw new InputError("api-url", "must be the API's base URL, without a query (?...) or fragment (#...)");
  return { token, baseUrl: baseUrl.replace(/\/+$/, ""), teamId: config["team-id"] };
}
