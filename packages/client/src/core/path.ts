import { RequestValidationError } from "../transport/errors.js";

/**
 * Builds a request path, URL-encoding every interpolated value: path`/v1/projects/${id}`. An empty
 * value, `.` or `..` would address another resource (URL encoding leaves dots as they are, and a
 * dot segment is resolved away), so it is refused before anything is sent.
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  const template = strings.join("{}");
  return strings.reduce((out, part, i) => {
    if (i >= values.length) return out + part;
    const value = String(values[i]);
    const wrong = value === "" ? "is empty" : value === "." || value === ".." ? `is "${value}"` : undefined;
    if (wrong) {
      throw new RequestValidationError(
        `Invalid request to ${template}, nothing was sent: path parameter ${i + 1} ${wrong}`,
        {
          method: "",
          path: template,
          details: { [`path.${i + 1}`]: ["must not be empty, . or .."] },
        },
      );
    }
    return out + part + encodeURIComponent(value);
  }, "");
}

/**
 * The `/v1/teams/{teamId}/...` twin of a spec path. Paths already under `/v1/teams` (the teams
 * list, or a path the caller twinned itself) are left as they are.
 */
export function twinPath(specPath: string, teamId: string | undefined | null): string {
  if (
    !teamId ||
    specPath === "/v1/teams" ||
    specPath.startsWith("/v1/teams/") ||
    !specPath.startsWith("/v1/")
  ) {
    return specPath;
  }
  return `/v1/teams/${encodeURIComponent(teamId)}/${specPath.slice("/v1/".length)}`;
}
