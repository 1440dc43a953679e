import { ApiFailure } from "../http.js";
import type { Team } from "../model/world.js";

// Who reads billing, and what they see (spec 5.4).

export interface BillingScope {
  /** The billing customer: `organisation`, or the id of a team with its own billing. */
  customer: string;
  currency: string;
  /** Set when the reader is one team: the breakdown starts at projects. */
  team: Team | undefined;
  /** A team billed through the organisation: `scope`, no customer-level categories, no credit balance. */
  teamScoped: boolean;
}

/** The `scope` object of team-scoped responses (its fields are not shown by the spec: ours). */
export const scopeObject = (scope: BillingScope) =>
  scope.teamScoped && scope.team
    ? {
        scope: {
          type: "team",
          teamId: scope.team.uid,
          teamName: scope.team.name,
          billedThrough: "organisation",
        },
      }
    : {};

/** A team reader cannot filter by team (spec 4.1 rule 6). */
export function refuseTeamFilter(scope: BillingScope, teamId: string | undefined): void {
  if (scope.team && teamId !== undefined)
    throw new ApiFailure(
      403,
      "a team token cannot filter by teamId: its billing is already limited to its team",
      {
        "query.teamId": ["not allowed for a team token"],
      },
    );
}
