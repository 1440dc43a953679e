import { createHash } from "node:crypto";
import { globSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { data, Evaluator, Lexer, Parser } from "@actions/expressions";
import type { FunctionDefinition } from "@actions/expressions/funcs/info";
import { truthy } from "@actions/expressions/result";
import {
  isBasicExpression,
  isBoolean,
  isMapping,
  isNumber,
  isSequence,
  isString,
} from "@actions/workflow-parser";
import { InsertExpressionToken, type TemplateToken } from "@actions/workflow-parser/templates/tokens/index";
import { parse as parseYaml } from "yaml";

type ExpressionData = data.ExpressionData;

// Expressions as GitHub evaluates them: its own lexer, parser and evaluator (@actions/expressions,
// the implementation behind its editor support), so every function (contains, startsWith, format,
// fromJSON, toJSON, join, ...), operator, index and object filter, coercion rule and limit is
// GitHub's. Ours are only what a run has and a parser cannot: the contexts' values, the status
// functions and hashFiles (files on this machine).

export interface StatusFunctions {
  success(): boolean;
  failure(): boolean;
  always(): boolean;
  cancelled(): boolean;
}

/** What an expression is evaluated in: the contexts' values, the status of the job or step, the workspace. */
export interface Scope {
  contexts: Record<string, unknown>;
  status: StatusFunctions;
  /** The folder hashFiles reads (github.workspace). */
  workspace: string;
  /** Where the names of secrets read but not given are noted (GitHub reads them as ''). */
  secretsNotGiven?: Set<string>;
}

/**
 * Outputs of a step the rehearsal does not run (a `run:` script, another's action): their values
 * are not known. Read in an expression, they make its value unknown too (`UnknownValue`), never ''.
 */
export class SetByScript {
  constructor(
    /** The step, as the log names it. */
    readonly step: string,
    /** A `run:` script (which --run-shell runs), or another's action. */
    readonly script: boolean,
  ) {}

  toString(): string {
    return this.script
      ? `unknown (set by the run: step "${this.step}", which the rehearsal does not run; --run-shell runs it)`
      : `unknown (set by the step "${this.step}", which the rehearsal does not run)`;
  }
}

/** An expression read a value only a step not run sets: its value is not known here. */
export class UnknownValue extends Error {
  override name = "UnknownValue";
  constructor(readonly from: SetByScript) {
    super(from.toString());
  }
}

/** Outputs of a `run:` step not run: any output read marks the expression unknown. */
class ScriptOutputs extends data.Dictionary {
  constructor(
    readonly from: SetByScript,
    private readonly read: { unknown?: SetByScript },
  ) {
    super();
  }
  override get(_key: string): ExpressionData | undefined {
    this.read.unknown ??= this.from;
    return new data.StringData("");
  }
}

/** A JavaScript value (JSON-like) as the evaluator's data. */
function toData(value: unknown, read: { unknown?: SetByScript }): ExpressionData {
  if (value instanceof SetByScript) return new ScriptOutputs(value, read);
  if (value === null || value === undefined) return new data.Null();
  if (typeof value === "string") return new data.StringData(value);
  if (typeof value === "number") return new data.NumberData(value);
  if (typeof value === "boolean") return new data.BooleanData(value);
  if (Array.isArray(value)) {
    const array = new data.Array();
    for (const item of value) array.add(toData(item, read));
    return array;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const unknown = entries.map(([, item]) => item).find((item) => item instanceof SetByScript);
  const dictionary = unknown ? new HoldsUnknown(unknown, read) : new data.Dictionary();
  for (const [key, item] of entries) dictionary.add(key, toData(item, read));
  return dictionary;
}

/** The `secrets` context, noting each name read that was not given (its value is '' on GitHub too). */
class GivenSecrets extends data.Dictionary {
  constructor(
    secrets: Record<string, string>,
    private readonly notGiven: Set<string>,
  ) {
    super();
    for (const [name, value] of Object.entries(secrets)) this.add(name, new data.StringData(value));
  }
  override get(key: string): ExpressionData | undefined {
    const value = super.get(key);
    if (value === undefined) this.notGiven.add(key);
    return value;
  }
}

/**
 * A dictionary one of whose values only a step not run sets (a job output in `needs`, a step's
 * `outputs`): reading that value, or the whole (`toJSON(needs.a.outputs)`), marks the expression
 * unknown, so it is never a text such as `Object` inside a longer string.
 */
class HoldsUnknown extends data.Dictionary {
  constructor(
    private readonly from: SetByScript,
    private readonly read: { unknown?: SetByScript },
  ) {
    super();
  }
  override get(key: string): ExpressionData | undefined {
    const value = super.get(key);
    if (value instanceof ScriptOutputs) this.read.unknown ??= value.from;
    return value;
  }
  override pairs() {
    this.read.unknown ??= this.from;
    return super.pairs();
  }
  override values() {
    this.read.unknown ??= this.from;
    return super.values();
  }
}

/** The evaluator's data as a JavaScript value. */
export function fromData(value: ExpressionData): unknown {
  switch (value.kind) {
    case data.Kind.String:
    case data.Kind.Number:
    case data.Kind.Boolean:
      return (value as data.StringData | data.NumberData | data.BooleanData).value;
    case data.Kind.Null:
      return null;
    case data.Kind.Array:
      return (value as data.Array).values().map(fromData);
    default:
      return Object.fromEntries((value as data.Dictionary).pairs().map((p) => [p.key, fromData(p.value)]));
  }
}

const status = (name: keyof StatusFunctions, scope: Scope): FunctionDefinition => ({
  name,
  minArgs: 0,
  maxArgs: 0,
  call: () => new data.BooleanData(scope.status[name]()),
});

/**
 * hashFiles as the runner computes it ("Expressions", https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#hashfiles):
 * the files the patterns match under the workspace (a pattern with `!` excludes), in order of their
 * path, each file's SHA-256 hashed into one; '' when none match. Only files under the workspace
 * count: a pattern reaching outside it (an absolute path, `..`, a link out) matches nothing there,
 * and nothing outside is read.
 */
function hashFiles(scope: Scope): FunctionDefinition {
  return {
    name: "hashFiles",
    minArgs: 1,
    maxArgs: 255,
    call: (...args) => {
      const workspace = realpathSync(scope.workspace);
      /** The files `pattern` matches that are inside the workspace, by their path relative to it. */
      const matched = (pattern: string) =>
        globSync(pattern, { cwd: workspace }).flatMap((match) => {
          const real = (() => {
            try {
              return realpathSync(resolve(workspace, match));
            } catch {
              return undefined;
            }
          })();
          const inside = real === undefined ? undefined : relative(workspace, real);
          return inside !== undefined && inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)
            ? [inside]
            : [];
        });
      const patterns = args.map((a) => a.coerceString());
      const excluded = new Set(patterns.filter((p) => p.startsWith("!")).flatMap((p) => matched(p.slice(1))));
      const files = [...new Set(patterns.filter((p) => !p.startsWith("!")).flatMap(matched))]
        .filter((f) => !excluded.has(f) && statSync(join(workspace, f)).isFile())
        .sort();
      if (files.length === 0) return new data.StringData("");
      const all = createHash("sha256");
      for (const file of files)
        all.update(
          createHash("sha256")
            .update(readFileSync(join(workspace, file)))
            .digest(),
        );
      return new data.StringData(all.digest("hex"));
    },
  };
}

/** One expression (without `${{ }}`), evaluated; throws GitHub's error for one it refuses. */
export function evaluate(expression: string, scope: Scope): ExpressionData {
  const read: { unknown?: SetByScript } = {};
  const functions = new Map<string, FunctionDefinition>(
    [
      status("success", scope),
      status("failure", scope),
      status("always", scope),
      status("cancelled", scope),
      hashFiles(scope),
    ].map((f) => [f.name.toLowerCase(), f]),
  );
  const { tokens } = new Lexer(expression).lex();
  const tree = new Parser(tokens, Object.keys(scope.contexts), [...functions.values()]).parse();
  const context = new data.Dictionary();
  for (const [name, value] of Object.entries(scope.contexts))
    context.add(
      name,
      name === "secrets" && scope.secretsNotGiven
        ? new GivenSecrets(value as Record<string, string>, scope.secretsNotGiven)
        : toData(value, read),
    );
  let value: ExpressionData;
  try {
    value = new Evaluator(tree, context, functions).evaluate();
  } catch (error) {
    // An error from a value not known (fromJSON of it) is that value's, not the expression's.
    if (read.unknown !== undefined) throw new UnknownValue(read.unknown);
    throw error;
  }
  if (read.unknown !== undefined) throw new UnknownValue(read.unknown);
  return value;
}

/** An `if:` as the parser gave it (`success() && (...)` where it names no status function): true or false. */
export function condition(expression: string, scope: Scope): boolean {
  return truthy(evaluate(expression, scope));
}

/**
 * A block scalar (`key: |`) with expressions in it: the parser's `format(...)` keeps the lines as
 * the file has them, indentation and all (for its editor's positions), where a run has the
 * scalar's value. So the value is read as YAML reads it, and each `${{ }}` in it replaced by its
 * expression's value, in order, as GitHub's runner does.
 */
function blockScalarText(token: TemplateToken, scope: Scope): string | undefined {
  if (!isBasicExpression(token) || token.blockScalarHeader === undefined || token.source === undefined)
    return undefined;
  const expressions = token.originalExpressions ?? [];
  const lines = token.source.split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)?.[0].length ?? 0));
  const value = parseYaml(
    `v: ${token.blockScalarHeader}\n${lines.map((l) => `  ${l.slice(indent)}`).join("\n")}`,
  ) as {
    v: string;
  };
  let out = "";
  let at = 0;
  for (const expression of expressions) {
    const start = value.v.indexOf("${{", at);
    if (start < 0) return undefined;
    // The expression ends at the first `}}` outside a string literal, as the parser reads it.
    let end = -1;
    let inString = false;
    for (let i = start + 3; i < value.v.length; i++) {
      if (value.v[i] === "'") inString = !inString;
      else if (!inString && value.v[i] === "}" && value.v[i - 1] === "}") {
        end = i + 1;
        break;
      }
    }
    if (end < 0) return undefined;
    out += value.v.slice(at, start) + evaluate(expression.expression, scope).coerceString();
    at = end;
  }
  return out + value.v.slice(at);
}

/**
 * A value of the workflow (a string with `${{ }}` in it is the parser's `format(...)`), as a
 * JavaScript value: mappings and sequences whole, an expression's value as it evaluates.
 */
export function tokenValue(token: TemplateToken | undefined, scope: Scope): unknown {
  if (token === undefined) return undefined;
  // A block scalar that holds one expression and nothing else is that expression's value (a
  // matrix written `matrix: |` over `${{ fromJSON(...) }}`), as the runner reads it.
  const alone = onlyExpression(token);
  if (alone !== undefined) return fromData(evaluate(alone, scope));
  const block = blockScalarText(token, scope);
  if (block !== undefined) return block;
  if (isBasicExpression(token)) return fromData(evaluate(token.expression, scope));
  if (isString(token)) return token.value;
  if (isNumber(token) || isBoolean(token)) return token.value;
  // An item that is one expression yielding a list is spliced in, its items in its place, as the
  // runner's template reader does it (TemplateUnraveler.SequenceItemBasicExpression in actions/runner:
  // "isSequenceInsertion"); a list written out as an item stays one item.
  if (isSequence(token))
    return [...token].flatMap((item) => {
      const value = tokenValue(item, scope);
      return isBasicExpression(item) && Array.isArray(value) ? value : [value];
    });
  if (isMapping(token)) {
    const out: Record<string, unknown> = {};
    for (const pair of token) {
      const value = tokenValue(pair.value, scope);
      // `${{ insert }}: <a mapping>` lays that mapping's members in, where the key stands.
      if (pair.key instanceof InsertExpressionToken) {
        if (value === null || typeof value !== "object" || Array.isArray(value))
          throw new Error("${{ insert }} needs a mapping as its value");
        Object.assign(out, value);
      }
      // A key written as an expression is its value as text (the runner's TemplateUnraveler
      // evaluates a mapping's keys as it does its values).
      else out[isBasicExpression(pair.key) ? tokenText(pair.key, scope) : pair.key.toString()] = value;
    }
    return out;
  }
  return null;
}

/** The expression of a block scalar that holds it alone, with only whitespace around. */
function onlyExpression(token: TemplateToken): string | undefined {
  if (!isBasicExpression(token) || token.blockScalarHeader === undefined || token.source === undefined)
    return undefined;
  const [only, ...more] = token.originalExpressions ?? [];
  if (only === undefined || more.length > 0) return undefined;
  return token.source.replace(/\$\{\{[\s\S]*\}\}/, "").trim() === "" ? only.expression : undefined;
}

/** Each `${{ }}` of a plain string (an action.yml default) replaced by its value as text. */
export function interpolate(text: string, scope: Scope): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    evaluate(expression, scope).coerceString(),
  );
}

/** A value as a runner hands it to a step (`with:`, `env:`): text, GitHub's way. */
export function tokenText(token: TemplateToken | undefined, scope: Scope): string {
  if (token === undefined) return "";
  const block = blockScalarText(token, scope);
  if (block !== undefined) return block;
  if (isBasicExpression(token)) return evaluate(token.expression, scope).coerceString();
  return toData(tokenValue(token, scope), {}).coerceString();
}

/** Each member of a mapping (`env:`, `with:`) as text, in order; later ones see nothing of earlier ones. */
export function mappingText(token: TemplateToken | undefined, scope: Scope): Record<string, string> {
  if (token === undefined || !isMapping(token)) return {};
  return Object.fromEntries([...token].map((pair) => [pair.key.toString(), tokenText(pair.value, scope)]));
}
