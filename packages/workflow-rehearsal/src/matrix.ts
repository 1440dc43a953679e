// A job's matrix, expanded as GitHub documents it ("Using a matrix for your jobs",
// https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations):
// every combination of the matrix's variables; `exclude` removes each combination an entry
// matches (all of the entry's variables equal); then each `include` entry is added to every
// combination it can extend without overwriting an original value (it may overwrite a value an
// earlier include added), and, where it extends none, becomes a combination of its own.

export type Combination = Record<string, unknown>;

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
  let combinations: Combination[] = [{}];
  for (const [name, values] of Object.entries(variables)) {
    if (!Array.isArray(values)) throw new Error(`strategy.matrix.${name} must be a list`);
    combinations = combinations.flatMap((c) => values.map((v) => ({ ...c, [name]: v })));
  }
  if (Object.keys(variables).length === 0) combinations = [];
  combinations = combinations.filter(
    (c) => !exclude.some((e) => Object.entries(e).every(([k, v]) => same(c[k], v))),
  );
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
  return extended.length > 0 ? extended : [{}];
}
