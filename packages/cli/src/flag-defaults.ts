// A flag's default is its input's default from action.yml, except where that is an expression the
// runner evaluates (`${{ github.token }}`): nothing evaluates it here, and its text passed on would
// be sent as a token. The workflow's token comes from GITHUB_TOKEN instead, the name a workflow's
// `run:` step gives it (`env: GITHUB_TOKEN: ${{ github.token }}`) and the one gh reads.

const FROM_ENVIRONMENT: Record<string, string> = { "${{ github.token }}": "GITHUB_TOKEN" };
const EXPRESSION = /^\$\{\{[\s\S]*\}\}$/;

/** The value a flag left out takes. */
export function flagDefault(spec: { default?: string }): string {
  const variable = spec.default === undefined ? undefined : FROM_ENVIRONMENT[spec.default];
  if (variable !== undefined) return process.env[variable] ?? "";
  return spec.default === undefined || EXPRESSION.test(spec.default) ? "" : spec.default;
}

/** The default as the help shows it, if there is one. */
export function flagDefaultHelp(spec: { default?: string }): string | undefined {
  if (spec.default === undefined) return undefined;
  const variable = FROM_ENVIRONMENT[spec.default];
  if (variable !== undefined) return `the ${variable} environment variable`;
  return EXPRESSION.test(spec.default) ? undefined : spec.default;
}
