import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";

// GitHub's own OpenAPI description of its REST API (npm @octokit/openapi, api.github.com), as the
// stand-in's judge: every request is matched to its operation and checked against the operation's
// parameters and body schema, and every answer the stand-in gives against the response schema.
// A request GitHub would refuse, or an answer GitHub would never give, is a violation that fails
// the test.

const require = createRequire(import.meta.url);
// The package's index loads every GitHub flavour (400 MB); only api.github.com is read.
const DESCRIPTION_FILE = "@octokit/openapi/generated/api.github.com.json";

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: object;
}
interface Response {
  $ref?: string;
  content?: Record<string, { schema: object }>;
}
interface Operation {
  operationId: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses: Record<string, Response>;
}
interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; responses: Record<string, Response> };
}

/** A request matched to its operation, with its path parameters. */
export interface Matched {
  operationId: string;
  /** The path template: `/repos/{owner}/{repo}/deployments`. */
  template: string;
  params: Record<string, string>;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  /** Fixed segments: `/repos/{owner}/{repo}/issues/comments` wins over `.../issues/{issue_number}`. */
  fixed: number;
  operation: Operation;
}

type AjvClass = typeof import("ajv").default;
type AddFormats = typeof import("ajv-formats").default;

const at = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword}`).join("; ");

export class GitHubDescription {
  readonly #description: Description;
  readonly #routes: Route[] = [];
  readonly #ajv: InstanceType<AjvClass>;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.#description = require(DESCRIPTION_FILE) as Description;
    const Ajv = (require("ajv") as { default: AjvClass }).default;
    const addFormats = (require("ajv-formats") as { default: AddFormats }).default;
    // Not strict: the description carries OpenAPI's own keywords (`example`, `x-github`).
    this.#ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.#ajv);
    // GitHub answers "" for a URL never set (a status's `target_url`, documented as defaulting to
    // ""), which `format: uri` alone would refuse.
    this.#ajv.addFormat("uri", (text: string) => text === "" || URL.canParse(text));
    this.#ajv.addSchema({ $id: "github", components: jsonSchema(this.#description.components) });
    for (const [template, methods] of Object.entries(this.#description.paths)) {
      const names: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, name) => {
        names.push(name);
        return "([^/]+)";
      });
      const fixed = template.split("/").filter((s) => s && !s.startsWith("{")).length;
      for (const [method, operation] of Object.entries(methods))
        if (typeof operation === "object" && "responses" in operation)
          this.#routes.push({
            method: method.toUpperCase(),
            template,
            pattern: new RegExp(`^${source}$`),
            names,
            fixed,
            operation,
          });
    }
  }

  /** The operation a request is for, or undefined when GitHub has none. */
  match(method: string, pathname: string): Matched | undefined {
    let best: { route: Route; values: string[] } | undefined;
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(pathname);
      if (m && (!best || route.fixed > best.route.fixed)) best = { route, values: m.slice(1) };
    }
    if (!best) return undefined;
    const { route, values } = best;
    return {
      operationId: route.operation.operationId,
      template: route.template,
      params: Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(values[i] ?? "")])),
    };
  }

  /** What GitHub would refuse in this request (empty when nothing). */
  checkRequest(method: string, matched: Matched, query: URLSearchParams, body: unknown): string[] {
    const operation = this.#operation(method, matched);
    const problems: string[] = [];
    for (const p of operation.parameters ?? []) {
      const param = this.#parameter(p);
      if (param.in !== "path" && param.in !== "query") continue;
      const text = param.in === "path" ? matched.params[param.name] : (query.get(param.name) ?? undefined);
      if (text === undefined) {
        if (param.required) problems.push(`${param.in} parameter ${param.name} is required`);
        continue;
      }
      const validate = this.#validator(`param ${matched.template} ${param.name}`, param.schema);
      if (!validate(parameterValue(text, param.schema)))
        problems.push(`${param.in} parameter ${param.name}=${text}: ${at(validate.errors)}`);
    }
    const schema = operation.requestBody?.content["application/json"]?.schema;
    if (body === undefined) {
      if (operation.requestBody?.required) problems.push("a JSON body is required");
    } else if (!schema) problems.push("the operation takes no JSON body");
    else {
      const validate = this.#validator(`body ${method} ${matched.template}`, schema);
      if (!validate(body)) problems.push(`body: ${at(validate.errors)}`);
    }
    return problems;
  }

  /** What in this answer GitHub's description does not allow (empty when nothing). */
  checkResponse(method: string, matched: Matched, status: number, body: unknown): string[] {
    const operation = this.#operation(method, matched);
    let response = operation.responses[String(status)];
    // GitHub's description leaves out errors any operation may answer (401, 403, 404).
    if (!response)
      return status < 400 ? [`status ${status} is not an answer of ${operation.operationId}`] : [];
    if (response.$ref)
      response = this.#description.components.responses[response.$ref.split("/").pop() ?? ""] ?? {};
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return [];
    const validate = this.#validator(`response ${method} ${matched.template} ${status}`, schema);
    return validate(body) ? [] : [`answer ${status}: ${at(validate.errors)}`];
  }

  #operation(method: string, matched: Matched): Operation {
    const operation = this.#description.paths[matched.template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`no ${method} ${matched.template} in GitHub's description`);
    return operation;
  }

  #parameter(p: Parameter | { $ref: string }): Parameter {
    if (!("$ref" in p)) return p;
    const name = p.$ref.split("/").pop() ?? "";
    const found = this.#description.components.parameters[name];
    if (!found) throw new Error(`GitHub's description has no parameter ${p.$ref}`);
    return found;
  }

  /** A validator for a schema of the description, its `#/components/...` references resolved there. */
  #validator(key: string, schema: object): ValidateFunction {
    let validate = this.#compiled.get(key);
    if (!validate) {
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"github#/components/'));
      validate = this.#ajv.compile(jsonSchema(rooted) as object);
      this.#compiled.set(key, validate);
    }
    return validate;
  }
}

/** A parameter's text as the type its schema names (a page number is an integer, not "2"). */
function parameterValue(text: string, schema: object): unknown {
  const type = (schema as { type?: string }).type;
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/**
 * OpenAPI 3.0's schema as JSON Schema: `nullable: true` becomes "or null" (Ajv takes `nullable`
 * only beside a `type`, and the description also puts it beside `allOf` and `oneOf`).
 */
function jsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === "example" || key === "examples" ? value : jsonSchema(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  return { anyOf: [out, { type: "null" }] };
}
