import { z } from "zod";
import { listEnvelope, timestamp } from "./shared.js";

// Spec 2.7 and 4.9: subdomain paths. Only read by the API, so this is a tolerant response schema;
// the rules of 2.7 that describe values (modes, methods, retryOn) are typed as open enums.

export const SUBDOMAIN_PATTERN = /^(\*|@|[a-z0-9-]+(\.[a-z0-9-]+)*)$/;

export const subdomainPath = z.looseObject({
  subdomain: z.string().nullish(),
  mode: z.string().nullish(),
  uri: z.string().nullish(),
  options: z
    .looseObject({
      priority: z.number().nullish(),
      ignoreUriCase: z.boolean().nullish(),
      rewrite: z
        .union([
          z.looseObject({ uri: z.string() }),
          z.looseObject({ regex: z.looseObject({ match: z.string(), rewrite: z.string() }) }),
        ])
        .nullish(),
      timeout: z.string().nullish(),
      headers: z.looseObject({}).nullish(),
      corsPolicy: z.looseObject({ enabled: z.boolean() }).nullish(),
      retries: z.looseObject({ enabled: z.boolean(), attempts: z.number() }).nullish(),
    })
    .nullish(),
  name: z.string().nullish(),
  createdAt: timestamp().nullish(),
});
export type SubdomainPath = z.infer<typeof subdomainPath>;
export const subdomainPathListResponse = listEnvelope("paths", subdomainPath);

/** Path parameters of the subdomain-path list: `*`, `@` or lowercase dot-separated labels. */
export const subdomainParam = () =>
  z
    .string()
    .regex(
      SUBDOMAIN_PATTERN,
      "must be *, @ or dot-separated lowercase labels of letters, digits and hyphens",
    );

// The full rules of 2.7, strict, for producers of subdomain paths (the emulator's fixtures, tests).
const DURATION_S_MS = /^[1-9]\d*(s|ms)$/;
const headerNames = z.array(z.string().regex(/^[A-Za-z0-9_\-%$+]+$/, "letters, digits and _ - % $ + only"));
const headerOps = z.strictObject({
  set: z.record(z.string(), z.string()).optional(),
  add: z.record(z.string(), z.string()).optional(),
  remove: headerNames.optional(),
});
export const RETRY_ON = [
  "5xx",
  "gateway-error",
  "reset",
  "connect-failure",
  "envoy-ratelimited",
  "retriable-4xx",
  "refused-stream",
  "retriable-status-codes",
  "retriable-headers",
  "cancelled",
  "deadline-exceeded",
  "internal",
  "resource-exhausted",
  "unavailable",
] as const;
export const HTTP_METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "CONNECT",
  "HEAD",
] as const;
const matchMode = z.enum(["prefix", "exact", "regex"]);

export const subdomainPathOptions = z.strictObject({
  priority: z.number().int().optional(),
  ignoreUriCase: z.boolean().optional(),
  rewrite: z
    .union([
      z.strictObject({ uri: z.string().regex(/^\//, "must be an absolute path starting with /") }),
      z.strictObject({ regex: z.strictObject({ match: z.string(), rewrite: z.string() }) }),
    ])
    .optional(),
  timeout: z.string().regex(DURATION_S_MS, "a positive integer followed by s or ms").optional(),
  headers: z.strictObject({ request: headerOps.optional(), response: headerOps.optional() }).optional(),
  corsPolicy: z
    .strictObject({
      enabled: z.boolean(),
      allowOrigins: z.array(z.strictObject({ mode: matchMode, origin: z.string().optional() })).optional(),
      allowMethods: z.array(z.enum(HTTP_METHODS)).optional(),
      allowCredentials: z.boolean().optional(),
      allowHeaders: z.array(z.string()).optional(),
      maxAge: z
        .string()
        .regex(/^[1-9]\d*[smh]$/, "a positive integer followed by s, m or h")
        .optional(),
    })
    .optional(),
  retries: z
    .strictObject({
      enabled: z.boolean(),
      attempts: z.number().int(),
      perTryTimeout: z.string().regex(DURATION_S_MS, "a positive integer followed by s or ms").optional(),
      retryOn: z.array(z.enum(RETRY_ON)).optional(),
    })
    .optional(),
});

export const subdomainPathSpec = z.strictObject({
  subdomain: subdomainParam(),
  mode: matchMode,
  uri: z.string().min(1),
  options: subdomainPathOptions.optional(),
  name: z.string().optional(),
  createdAt: z.string().optional(),
});
export type SubdomainPathSpec = z.input<typeof subdomainPathSpec>;
