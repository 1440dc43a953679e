// A job's matrix, expanded as GitHub documents it ("Using a matrix for your jobs",
// https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations):
// every combination of the matrix's variables; `exclude` removes each combination an entry
// matches (all of the entry's variables equal); then each `include` entry is added to every
// combination it can extend without overwriting an original value (it may overwrite a value an
// earlier include added), and, where it extends none, becomes a combination of its own.

export type Combination = Record<string, unknown>;

/** "A matrix will generate a maximum of 256 jobs per workflow run" (the same page). */
export const MAX_MATRIX_JOBS = 256;

/** The most combinations a rehearsal goes through to apply excludes (a second at most). */
const MAX_COMBINATIONS_READ = 1_000_000;

/** What GitHub refuses, before a single combination is made. */
const tooMany = (jobs: number | string) =>
  new Error(
    `strategy.matrix would run ${jobs} jobs: a matrix generates at most ${MAX_MATRIX_JOBS} jobs per workflow run`,
  );

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** GitHub compares matrix values as the values they are (a number is not its text). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A matrix's combinations; a matrix that is not an object of lists is refused, naming why. */
export function expandMatrix(matrix: unknown): Combination[] {
  if (matrix === undefined || matrix === null) return [{}];
  if (!isObject(matrix)) throw new Error("strategy.matrix must be a mapping of variables to lists");
  const { include = [], exclude = [], ...variables } = matrix;
  if (!Array.isArray(include) || !include.every(isObject))
    throw new Error("strategy.matrix.include must be a list of mappings");
  if (!Array.isArray(exclude) || !exclude.every(isObject))
    throw new Error("strategy.matrix.exclude must be a list of mappings");
  const vectors = Object.entries(variables);
  for (const [name, values] of vectors)
    if (!Array.isArray(values)) throw new Error(`strategy.matrix.${name} must be a list`);
  const lists = vectors.map(([, values]) => values as unknown[]);
  const product = vectors.length === 0 ? 0 : lists.reduce((n, values) => n * values.length, 1);
  // What the excludes can take away at most: each removes the combinations it matches, no more
  // than the product over the variables it does not name. Past the limit even so: refused at once,
  // whatever the vectors' size (12^6 combinations are never made).
  const removable = exclude.reduce((n, entry) => {
    const free = vectors.filter(([name]) => !(name in entry));
    return n + free.reduce((m, [, values]) => m * (values as unknown[]).length, 1);
  }, 0);
  if (product - removable > MAX_MATRIX_JOBS) throw tooMany(product);
  // Excludes that take nearly all of a vast product away: too many to go through, whatever they leave.
  if (product > MAX_COMBINATIONS_READ)
    throw new Error(
      `strategy.matrix has ${product} combinations before its excludes, more than the ${MAX_COMBINATIONS_READ} a rehearsal goes through: exclude fewer, or list the jobs with include`,
    );
  const combinations: Combination[] = [];
  // One combination at a time, excluded ones skipped: at most the limit (and what excludes remove) is ever held.
  const index = lists.map(() => 0);
  for (let made = 0; made < product; made++) {
    const combination = Object.fromEntries(vectors.map(([name], i) => [name, lists[i]?.[index[i] ?? 0]]));
    if (!exclude.some((e) => Object.entries(e).every(([k, v]) => same(combination[k], v)))) {
      combinations.push(combination);
      if (combinations.length > MAX_MATRIX_JOBS) throw tooMany(`more than ${MAX_MATRIX_JOBS}`);
    }
    for (let i = lists.length - 1; i >= 0; i--) {
      index[i] = (index[i] ?? 0) + 1;
      if ((index[i] as number) < (lists[i] as unknown[]).length) break;
      index[i] = 0;
    }
  }
  const original = new Set(Object.keys(variables));
  const extended = combinations.map((c) => ({ ...c }));
  for (const entry of include) {
    let matched = false;
    for (const [i, combination] of combinations.entries()) {
      const keeps = Object.entries(entry).every(([k, v]) => !original.has(k) || same(combination[k], v));
      if (!keeps) continue;
      matched = true;
      Object.assign(extended[i] as Combination, entry);
    }
    if (!matched) extended.push({ ...entry });
  }
  if (extended.length > MAX_MATRIX_JOBS) throw tooMany(extended.length);
  return extended.length > 0 ? extended : [{}];
}
