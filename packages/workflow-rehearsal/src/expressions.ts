// GitHub Actions expressions (`${{ }}`), as much of them as our examples use: context paths,
// 'strings', numbers, true/false/null, == != && || ! and parentheses, and the status functions.
// Anything else is refused: a rehearsal must never pass because an expression was not understood.

export type Contexts = Record<string, unknown>;
export interface StatusFunctions {
  success(): boolean;
  failure(): boolean;
  always(): boolean;
  cancelled(): boolean;
}

const STATUS_FUNCTIONS: readonly string[] = ["success", "failure", "always", "cancelled"];

const TOKEN = /\s*('(?:[^']|'')*'|\d+(?:\.\d+)?|&&|\|\||==|!=|!|\(|\)|,|[A-Za-z_][\w-]*(?:\.[\w-]+)*)/y;

function tokens(expression: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    if (/^\s*$/.test(expression.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match) throw new Error(`expression ${JSON.stringify(expression)}: cannot read at ${at}`);
    out.push(match[1] as string);
  }
  return out;
}

/** GitHub's loose equality: strings compared case-insensitively, null as ''. */
const same = (a: unknown, b: unknown) => String(a ?? "").toLowerCase() === String(b ?? "").toLowerCase();
const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== "" && v !== 0;

export function evaluate(expression: string, contexts: Contexts, status: StatusFunctions): unknown {
  const list = tokens(expression);
  let i = 0;
  const peek = () => list[i];
  const take = (want?: string) => {
    const token = list[i++];
    if (token === undefined || (want !== undefined && token !== want))
      throw new Error(`expression ${JSON.stringify(expression)}: expected ${want ?? "more"}`);
    return token;
  };
  const primary = (): unknown => {
    const token = take();
    if (token === "(") {
      const value = or();
      take(")");
      return value;
    }
    if (token === "!") return !truthy(primary());
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (peek() === "(") {
      // Only the status functions: never a member every object has (`toString()`), and none of
      // GitHub's others (format, contains, ...), which this does not evaluate.
      if (!STATUS_FUNCTIONS.includes(token))
        throw new Error(`expression ${JSON.stringify(expression)}: no function ${token}()`);
      take("(");
      take(")");
      return status[token as keyof StatusFunctions]();
    }
    const [name, ...path] = token.split(".");
    if (!(name && Object.hasOwn(contexts, name)))
      throw new Error(`expression ${JSON.stringify(expression)}: no context ${name}`);
    // A property the value does not have is null, as GitHub reads it; an object's own members
    // only, never one every object inherits (`github.event.constructor`).
    return path.reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === "object" && Object.hasOwn(value, key)
          ? ((value as Record<string, unknown>)[key] ?? null)
          : null,
      contexts[name],
    );
  };
  const compare = (): unknown => {
    const left = primary();
    const op = peek();
    if (op === "==" || op === "!=") {
      take();
      const right = primary();
      return op === "==" ? same(left, right) : !same(left, right);
    }
    return left;
  };
  const and = (): unknown => {
    let value = compare();
    while (peek() === "&&") {
      take();
      const right = compare();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  const or = (): unknown => {
    let value = and();
    while (peek() === "||") {
      take();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  };
  const value = or();
  if (i !== list.length) throw new Error(`expression ${JSON.stringify(expression)}: unexpected ${list[i]}`);
  return value;
}

/** A string with `${{ }}` in it, each replaced by its value as text. */
export function interpolate(text: string, contexts: Contexts, status: StatusFunctions): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) => {
    const value = evaluate(expression, contexts, status);
    return value === undefined || value === null ? "" : String(value);
  });
}

/** An `if:`: an expression with or without `${{ }}`, true when truthy; a status function by default. */
export function condition(text: string | undefined, contexts: Contexts, status: StatusFunctions): boolean {
  if (text === undefined) return status.success();
  const bare = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(text)?.[1] ?? text;
  // Without a status function in it, GitHub reads `if: x` as `success() && (x)`.
  const value = evaluate(bare, contexts, status);
  return /\b(success|failure|always|cancelled)\(\)/.test(bare)
    ? truthy(value)
    : status.success() && truthy(value);
}
