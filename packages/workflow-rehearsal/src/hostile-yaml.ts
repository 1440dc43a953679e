import {
  type Document,
  isAlias,
  isCollection,
  isPair,
  isScalar,
  type Node,
  Parser,
  parseDocument,
} from "yaml";

// What a workflow file may cost before GitHub's parser reads it. That parser composes the YAML
// recursively and expands every alias where it stands: a file nested 20,000 deep overflows its
// stack, and a "billion laughs" of aliases takes minutes and gigabytes. Both are bad input, refused
// here in a moment, their cost measured on the file's syntax tree (walked without recursion) and
// on its aliases counted, never expanded.

/** Deeper than any workflow needs (a step's `with:` inside `steps:` inside a job is 6). */
export const MAX_DEPTH = 64;
/** Values once every alias is expanded: a large workflow has a few thousand. */
export const MAX_VALUES = 100_000;

type CstToken = { type: string; value?: CstToken; items?: Array<{ key?: CstToken; value?: CstToken }> };

/** A reason to refuse `text` before parsing it, or undefined. */
export function hostileYaml(text: string): string | undefined {
  // The CST parser keeps a stack of its own, whatever the nesting.
  let depth = 0;
  const stack: Array<[CstToken, number]> = [];
  for (const token of new Parser().parse(text)) stack.push([token as CstToken, 0]);
  while (stack.length > 0) {
    const [token, level] = stack.pop() as [CstToken, number];
    depth = Math.max(depth, level);
    if (depth > MAX_DEPTH) return `it nests more than ${MAX_DEPTH} levels deep`;
    if (token.value) stack.push([token.value, level]);
    for (const item of token.items ?? []) {
      if (item.key) stack.push([item.key, level + 1]);
      if (item.value) stack.push([item.value, level + 1]);
    }
  }
  const document = parseDocument(text, { uniqueKeys: false });
  let values: number;
  try {
    values = expandedValues(document);
  } catch (error) {
    if (error instanceof RangeError) return "its YAML aliases refer to one another too deep";
    throw error;
  }
  if (values > MAX_VALUES)
    return `its YAML aliases expand it to more than ${MAX_VALUES.toLocaleString("en-US")} values`;
  return undefined;
}

/** How many values the document holds with every alias expanded: each node counted once, then reused. */
function expandedValues(document: Document): number {
  const sizes = new Map<Node, number>();
  const size = (node: unknown, resolving: Set<unknown>): number => {
    if (isAlias(node)) {
      const target = node.resolve(document);
      // A circle of aliases: GitHub's parser leaves it out.
      if (target === undefined || resolving.has(target)) return 0;
      return size(target, resolving);
    }
    if (isScalar(node) || !isCollection(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    resolving.add(node);
    let total = 1;
    for (const item of node.items) {
      total += isPair(item) ? size(item.key, resolving) + size(item.value, resolving) : size(item, resolving);
      if (total > MAX_VALUES) break;
    }
    resolving.delete(node);
    sizes.set(node, total);
    return total;
  };
  return size(document.contents, new Set());
}
