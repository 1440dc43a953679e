import { createHash } from "node:crypto";

// The seeded world: deterministic for a given seed, rebuilt by /_emulator/reset.

export interface Team {
  id: string;
  uid: string;
  name: string;
  billing: "organisation" | "own";
}
export interface Project {
  id: string;
  uid: string;
  name: string;
  description: string;
  teamId: string;
}
export interface Token {
  value: string;
  /** The team the token is limited to; undefined for the organisation token. */
  teamId: string | undefined;
  canWrite: boolean;
}
export interface World {
  seed: number;
  teams: Team[];
  projects: Project[];
  tokens: Record<"org" | "teamViaOrg" | "teamOwnBilling" | "readOnly", Token>;
}

/** A 24-hex uid derived from the seed and a name: stable across resets, unique per name. */
export const uidFor = (seed: number, name: string) =>
  createHash("sha256").update(`${seed}:${name}`).digest("hex").slice(0, 24);

export function seedWorld(seed: number): World {
  const teams: Team[] = [
    { id: "platform", name: "Platform", billing: "organisation" },
    { id: "data", name: "Data", billing: "organisation" },
    { id: "labs", name: "Labs", billing: "own" },
  ].map((t) => ({ ...t, uid: uidFor(seed, `team:${t.id}`) }) as Team);
  const projects: Project[] = teams.flatMap((team) =>
    ["web", "api", "batch"].map((suffix) => {
      const id = `${team.id}-${suffix}`;
      return {
        id,
        uid: uidFor(seed, `project:${id}`),
        name: `${team.name} ${suffix}`,
        description: `The ${suffix} of ${team.name}`,
        teamId: team.id,
      };
    }),
  );
  const token = (name: string, teamId: string | undefined, canWrite = true): Token => ({
    value: `cwp_${name}_${uidFor(seed, `token:${name}`)}`,
    teamId,
    canWrite,
  });
  return {
    seed,
    teams,
    projects,
    tokens: {
      org: token("org", undefined),
      teamViaOrg: token("team", "platform"),
      teamOwnBilling: token("own", "labs"),
      readOnly: token("readonly", undefined, false),
    },
  };
}
