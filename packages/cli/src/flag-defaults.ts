// A flag's default is its input's default from action.yml, except where that is an expression the
// runner evaluates (`${{ github.token }}`): nothing evaluates it here, and its text passed on would
// be sent as a token. The workflow's token comes from GITHUB_TOKEN instead, the name a workflow's
// `run:` step gives it (`env: GITHUB_TOKEN: ${{ github.token }}`) and the one gh reads.

const FROM_ENVIRONMENT: Record<string, string> = { "${{ github.token }}": "GITHUB_TOKEN" };
const EXPRESSION = /^\$\{\{[\s\S]*\}\}$/;

type Spec = { default?: string };
/** The environment variable standing for a runner expression default, if it is one we know. */
const variableOf = ({ default: d }: Spec) => (d === undefined ? undefined : FROM_ENVIRONMENT[d]);
/** The default when it is plain text, not an expression. */
const literalOf = ({ default: d }: Spec) => (d === undefined || EXPRESSION.test(d) ? undefined : d);

/** The value a flag left out takes. */
export function flagDefault(spec: Spec): string {
  const variable = variableOf(spec);
  return variable !== undefined ? (process.env[variable] ?? "") : (literalOf(spec) ?? "");
}

/** The default as the help shows it, if there is one. */
export function flagDefaultHelp(spec: Spec): string | undefined {
  const variable = variableOf(spec);
  return variable !== undefined ? `the ${variable} environment variable` : literalOf(spec);
}
