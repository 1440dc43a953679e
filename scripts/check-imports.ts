// pnpm check:imports: the source files' imports flow one way. Fails on any circle of imports among
// a package's source files (`import type` counts: a type shared both ways is a layer missing), and
// on any import of @cwp/client from the emulator, whose reading of the spec must be its own so that
// a misreading in the client is caught instead of agreed with.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(new URL("..", import.meta.url).pathname);
const sourceRoots = ["packages", "actions"].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name, "src"))
    .filter((dir) => existsSync(dir)),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every module a file imports or re-exports (types too), as written. */
const specifiers = (file: string) =>
  ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName);

/** A relative specifier as the source file it names (`./x.js` is `./x.ts`), if it is one. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier).replace(/\.(m?js|ts)$/, "");
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => existsSync(candidate));
}

/** The circles of a graph: its strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node) as number, indices.get(next) as number));
    }
    if (low.get(node) !== indices.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const problems: string[] = [];
const emulatorSrc = join(root, "packages", "emulator", "src");
for (const dir of sourceRoots) {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const imported = specifiers(file);
    graph.set(
      file,
      imported.flatMap((s) => resolveLocal(file, s) ?? []),
    );
    if (file.startsWith(emulatorSrc))
      for (const s of imported)
        if (s === "@cwp/client" || s.startsWith("@cwp/client/"))
          problems.push(`${relative(root, file)} imports ${s}: the emulator reads the spec on its own`);
  }
  for (const circle of circles(graph))
    problems.push(`import circle: ${circle.map((f) => relative(root, f)).join(" → ")}`);
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  `${sourceRoots.length} packages' sources import one way, and the emulator nothing of @cwp/client.`,
);
