import { ApiFailure, RawJson, StreamedArray } from "../http.js";
import { numberedPage } from "../paginate.js";
import type { DrillDownQuery, ResourceType } from "../rules/billing.js";
import type { PageShape } from "../settings.js";
import { JsonBytes } from "./json-bytes.js";
import { type Amounts, add, type Ledger, type Meter, zero } from "./ledger.js";
import { cents, priced, priceMicros } from "./money.js";
import type { BillingScope } from "./scope.js";

// The PaaS hierarchy (team > project > resource type > resource) and the customer-level
// categories, over a range of hours: whole for usage lists, one page at one level for drill-downs
// (spec 2.2 and the table of 4.1).

export interface Filters {
  teamId?: string | undefined;
  projectId?: string | undefined;
  resourceType?: ResourceType | undefined;
}
export type Level = "teams" | "projects" | "resources";

export function scopeMeters(ledger: Ledger, scope: BillingScope): Meter[] {
  return ledger.meters.filter(
    (m) => m.customer === scope.customer && (!scope.team || m.teamId === scope.team.id),
  );
}

/** Filters narrow the meters; a uid outside the reader's billing is refused, naming the field. */
export function applyFilters(meters: Meter[], f: Filters): Meter[] {
  if (f.teamId !== undefined && !meters.some((m) => m.teamUid === f.teamId))
    throw new ApiFailure(400, "invalid query", { "query.teamId": ["no team with this uid in your billing"] });
  if (f.projectId !== undefined && !meters.some((m) => m.projectUid === f.projectId))
    throw new ApiFailure(400, "invalid query", {
      "query.projectId": ["no project with this uid in your billing"],
    });
  return meters.filter(
    (m) =>
      (f.teamId === undefined || m.teamUid === f.teamId) &&
      (f.projectId === undefined || m.projectUid === f.projectId) &&
      (f.resourceType === undefined || m.type === f.resourceType),
  );
}

export const isFiltered = (f: Filters) =>
  f.teamId !== undefined || f.projectId !== undefined || f.resourceType !== undefined;

/**
 * Per-meter sums over a range, computed once and shared by every level of a response. Kept in
 * one flat array by meter index (eight values each): an entry of a large organisation reads
 * 50,000 of them.
 */
export class Sums {
  readonly #values: Float64Array;
  readonly #done: Uint8Array;
  constructor(
    private readonly ledger: Ledger,
    readonly fromHour: number,
    readonly toHour: number,
  ) {
    this.#values = new Float64Array(8 * ledger.meters.length);
    this.#done = new Uint8Array(ledger.meters.length);
  }
  /** Every meter's sums, eight values each, by meter index (those not read yet not summed). */
  get values(): Float64Array {
    return this.#values;
  }
  /** Where a meter's eight values start in `values`, summed on its first read. */
  offsetOf(meter: Meter): number {
    const at = 8 * meter.index;
    if (!this.#done[meter.index]) {
      this.ledger.sum(meter, this.fromHour, this.toHour, this.#values.subarray(at, at + 8));
      this.#done[meter.index] = 1;
    }
    return at;
  }
  of(meter: Meter): Amounts {
    const at = this.offsetOf(meter);
    return this.#values.subarray(at, at + 8);
  }
  total(meters: readonly Meter[]): Amounts {
    const out = zero();
    for (const m of meters) add(out, this.#values, this.offsetOf(m));
    return out;
  }
}

/** Groups meters by a key, keeping the first-seen order. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const item = (sums: Sums, m: Meter) => ({ id: m.uid, ...priced(sums.of(m)) });

function resources(sums: Sums, meters: readonly Meter[], withItems: boolean) {
  return [...groupBy(meters, (m) => m.type)].map(([resourceType, group]) => ({
    resourceType,
    ...priced(sums.total(group)),
    items: withItems ? group.map((m) => item(sums, m)) : [],
  }));
}

/** A level of the hierarchy as written by hand: its opening (`{"id":…,`) encoded once, and its children. */
interface Written<C> {
  head: Uint8Array;
  children: C[];
}
/** A resource type's group: its opening, its meters, and each item's opening. */
interface WrittenGroup {
  head: Uint8Array;
  meters: Meter[];
  items: Uint8Array[];
}
type Hierarchy = Written<Written<WrittenGroup>>[];

const opening = (key: string, value: string) =>
  Buffer.from(`{${JSON.stringify(key)}:${JSON.stringify(value)},`);

/**
 * A list of meters grouped as the hierarchy (team > project > resource type), with the JSON of
 * every opening made: once per list, since a usage list writes the same hierarchy for each of its
 * entries.
 */
const hierarchies = new WeakMap<readonly Meter[], Hierarchy>();
function hierarchyOf(meters: readonly Meter[]): Hierarchy {
  let known = hierarchies.get(meters);
  if (!known) {
    known = [...groupBy(meters, (m) => m.teamUid)].map(([teamUid, team]) => ({
      head: opening("id", teamUid),
      children: [...groupBy(team, (m) => m.projectUid)].map(([projectUid, project]) => ({
        head: opening("id", projectUid),
        children: [...groupBy(project, (m) => m.type)].map(([type, group]) => ({
          head: opening("resourceType", type),
          meters: group,
          items: group.map((m) => opening("id", m.uid)),
        })),
      })),
    }));
    hierarchies.set(meters, known);
  }
  return known;
}

const PROJECTS = Buffer.from(',"projects":[');
const RESOURCES = Buffer.from(',"resources":[');
const ITEMS = Buffer.from(',"items":[');
const CLOSE = Buffer.from("]}");
const COMMA = 0x2c;

/**
 * The whole hierarchy down to resources (usage list entries), one team at a time as it is written.
 * Written as JSON bytes by hand (`JsonBytes`): an entry of a large organisation holds every
 * resource, and the generic serialiser was most of the time of such an answer. Same members, same
 * order as the drill-down's nodes (`priced`, tested against `JsonBytes.priced`). A level's amounts
 * are its children's added up, before it is written (its opening holds them).
 */
export function wholeTree(sums: Sums, meters: readonly Meter[]): StreamedArray {
  const out = new JsonBytes();
  const values = sums.values;
  const groupSum = (group: WrittenGroup) => {
    const sum = zero();
    for (const m of group.meters) add(sum, values, sums.offsetOf(m));
    return sum;
  };
  function* teams() {
    for (const team of hierarchyOf(meters)) {
      const projects = team.children.map((project) => {
        const groups = project.children.map((group) => ({ group, sum: groupSum(group) }));
        const sum = zero();
        for (const g of groups) add(sum, g.sum);
        return { project, groups, sum };
      });
      const teamSum = zero();
      for (const p of projects) add(teamSum, p.sum);
      out.bytes(team.head).priced(teamSum).bytes(PROJECTS);
      projects.forEach(({ project, groups, sum }, p) => {
        if (p > 0) out.byte(COMMA);
        out.bytes(project.head).priced(sum).bytes(RESOURCES);
        groups.forEach(({ group, sum }, g) => {
          if (g > 0) out.byte(COMMA);
          out.bytes(group.head).priced(sum).bytes(ITEMS);
          group.meters.forEach((m, i) => {
            if (i > 0) out.byte(COMMA);
            out
              .bytes(group.items[i] as Uint8Array)
              .priced(values, sums.offsetOf(m))
              .byte(0x7d);
          });
          out.bytes(CLOSE);
        });
        out.bytes(CLOSE);
      });
      yield new RawJson(out.bytes(CLOSE).take());
    }
  }
  return new StreamedArray(teams());
}

/** Which level a drill-down paginates (the table of spec 4.1). */
export function drillLevel(scope: BillingScope, f: Filters): Level {
  if (f.projectId !== undefined) return "resources";
  if (scope.team || f.teamId !== undefined || f.resourceType !== undefined) return "projects";
  return "teams";
}

/** One page of the drill-down at its level; everything above the page covers the whole range. */
export function drillDown(
  sums: Sums,
  filtered: readonly Meter[],
  level: Level,
  q: DrillDownQuery,
  f: Filters,
  shape: PageShape,
) {
  const pageParam = { teams: q.teamsPage, projects: q.projectsPage, resources: q.resourcesPage }[level] ?? 1;
  const size =
    { teams: q.teamsPerPage, projects: q.projectsPerPage, resources: q.resourcesPerPage }[level] ?? 50;
  const byTeam = groupBy(filtered, (m) => m.teamUid);
  const page = <T>(all: T[]) => {
    const { items, hasNextPage } = numberedPage(all, pageParam, size, shape);
    return { items, pagination: { hasNextPage, count: items.length, unit: level } };
  };
  if (level === "teams") {
    const { items, pagination } = page([...byTeam]);
    return { teams: items.map(([id, team]) => ({ id, ...priced(sums.total(team)) })), pagination };
  }
  if (level === "projects") {
    const { items, pagination } = page([...groupBy(filtered, (m) => m.projectUid)]);
    const pageTeams = groupBy(
      items.map(([, ms]) => ms),
      (ms) => (ms[0] as Meter).teamUid,
    );
    return {
      teams: [...pageTeams].map(([teamUid, projects]) => ({
        id: teamUid,
        ...priced(sums.total(byTeam.get(teamUid) ?? [])),
        projects: projects.map((ms) => ({
          id: (ms[0] as Meter).projectUid,
          ...priced(sums.total(ms)),
          ...(f.resourceType !== undefined ? { resources: resources(sums, ms, false) } : {}),
        })),
      })),
      pagination,
    };
  }
  const { items, pagination } = page([...filtered]);
  const project = filtered;
  return {
    teams: [...groupBy(items, (m) => m.teamUid)].map(([teamUid]) => ({
      id: teamUid,
      ...priced(sums.total(byTeam.get(teamUid) ?? [])),
      projects: [
        {
          id: f.projectId,
          ...priced(sums.total(project)),
          resources: [...groupBy(items, (m) => m.type)].map(([resourceType, group]) => ({
            resourceType,
            ...priced(sums.total(project.filter((m) => m.type === resourceType))),
            items: group.map((m) => item(sums, m)),
          })),
        },
      ],
    })),
    pagination,
  };
}

/** BYOC (with clusters when asked), egress IP and load balancer of a customer, and their sum. */
export function customerCategories(
  ledger: Ledger,
  customer: string,
  fromHour: number,
  toHour: number,
  clusters: boolean,
) {
  const byCategory = { byoc: zero(), egressIp: zero(), loadBalancer: zero() };
  const clusterNodes: Array<Record<string, unknown>> = [];
  for (const meter of ledger.customerMeters.filter((c) => c.customer === customer)) {
    const sum = ledger.customerSum(meter, fromHour, toHour);
    add(byCategory[meter.category], sum);
    if (meter.clusterId) clusterNodes.push({ id: meter.clusterId, name: meter.name, ...priced(sum) });
  }
  const micros =
    priceMicros(byCategory.byoc) + priceMicros(byCategory.egressIp) + priceMicros(byCategory.loadBalancer);
  return {
    micros,
    categories: {
      byoc: {
        ...priced(byCategory.byoc),
        ...(clusters && clusterNodes.length > 0 ? { clusters: clusterNodes } : {}),
      },
      egressIp: priced(byCategory.egressIp),
      loadBalancer: priced(byCategory.loadBalancer),
    },
  };
}

/** `total` of a response: the rounded sum of everything it charges. */
export const totalOf = (micros: number) => cents(micros);
