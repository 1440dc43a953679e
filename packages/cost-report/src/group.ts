import type { UsageEntry, UsageLevel } from "@cwp/client";
import { Decimal } from "./decimal.js";

// Rows of the report: the PaaS hierarchy of usage entries grouped as asked, plus the
// customer-level categories, each amount added exactly from unrounded components.

/** What the report's rows are: one per team, project, resource type or resource. */
export type GroupBy = "team" | "project" | "resource-type" | "resource";

export interface Usage {
  vcpuHours: Decimal;
  memoryGibHours: Decimal;
  storageGibHours: Decimal;
  gpuHours: Decimal;
}
export interface Row {
  key: string;
  label: string;
  /** `customer`: BYOC, egress IP, load balancer (billing-customer level, not a group). */
  kind: "group" | "customer";
  cost: Decimal;
  usage: Usage;
  /** True when a node had only a rounded total, no components. */
  approximate: boolean;
}

type Price = {
  total: number;
  cpu?: number | undefined;
  memory?: number | undefined;
  storage?: number | undefined;
  gpu?: number | undefined;
};
type Priced = {
  price?: Price | undefined;
  usage?:
    | {
        vcpuHours?: number | undefined;
        memoryGibHours?: number | undefined;
        storageGibHours?: number | undefined;
        gpuHours?: number | undefined;
      }
    | undefined;
};

/** The unrounded amount of a price node: its components added exactly (undefined without any). */
export function componentSum(price: Price | undefined): Decimal | undefined {
  if (!price) return undefined;
  const parts = [price.cpu, price.memory, price.storage, price.gpu].filter(
    (v): v is number => v !== undefined,
  );
  return parts.length === 0 ? undefined : Decimal.sum(parts.map((v) => Decimal.from(v)));
}

export const noUsage = (): Usage => ({
  vcpuHours: Decimal.zero,
  memoryGibHours: Decimal.zero,
  storageGibHours: Decimal.zero,
  gpuHours: Decimal.zero,
});
const dec = (v: number | undefined) => (v === undefined ? Decimal.zero : Decimal.from(v));

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    vcpuHours: a.vcpuHours.plus(b.vcpuHours),
    memoryGibHours: a.memoryGibHours.plus(b.memoryGibHours),
    storageGibHours: a.storageGibHours.plus(b.storageGibHours),
    gpuHours: a.gpuHours.plus(b.gpuHours),
  };
}

function amounts(node: Priced): Pick<Row, "cost" | "usage" | "approximate"> {
  const exact = componentSum(node.price);
  return {
    cost: exact ?? dec(node.price?.total),
    approximate: exact === undefined,
    usage: {
      vcpuHours: dec(node.usage?.vcpuHours),
      memoryGibHours: dec(node.usage?.memoryGibHours),
      storageGibHours: dec(node.usage?.storageGibHours),
      gpuHours: dec(node.usage?.gpuHours),
    },
  };
}

/**
 * A row's label, made once the names are known: `text`, where `named` (a team's or project's id)
 * stands at NAME_AT by its name. Rows are folded before the names are read to the end (a large
 * organisation's take several pages), so folding never waits for them.
 */
type Label = { text: string; named?: string };
const NAME_AT = "\u0000";
const ofName = (id: string, around = NAME_AT): Label => ({ text: around, named: id });
const labelText = ({ text, named }: Label, names: Map<string, string>): string =>
  // A function, so that a name holding `$&` is not read as a replacement pattern.
  named === undefined ? text : text.replace(NAME_AT, () => names.get(named) ?? named);

type Node = { key: string; label: Label; node: Priced };
type Team = NonNullable<UsageEntry["paas"]["teams"]>[number];

/** How deep `teamNodes` reads a team for each grouping: a streamed read passes over the rest unparsed. */
export const levelRead = (groupBy: GroupBy): UsageLevel =>
  groupBy === "team" ? "teams" : groupBy === "project" ? "projects" : "resources";

/** The nodes of one team at the grouping's level, with their keys and labels. */
function teamNodes(team: Team, groupBy: GroupBy): Node[] {
  if (groupBy === "team") return [{ key: team.id, label: ofName(team.id), node: team }];
  const out: Node[] = [];
  for (const project of team.projects ?? []) {
    if (groupBy === "project") {
      out.push({ key: project.id, label: ofName(project.id), node: project });
      continue;
    }
    for (const group of project.resources ?? []) {
      const items = group.items;
      if (groupBy === "resource-type") {
        // Items when there are any; the group's own figures when the level has none.
        const label = { text: group.resourceType };
        if (items.length === 0) out.push({ key: group.resourceType, label, node: group as Priced });
        for (const item of items) out.push({ key: group.resourceType, label, node: item });
      } else {
        for (const item of items)
          out.push({
            key: item.id,
            label: ofName(project.id, `${group.resourceType} ${item.id} (${NAME_AT})`),
            node: item,
          });
      }
    }
  }
  return out;
}

const CUSTOMER = [
  ["byoc", "BYOC (bring your own cloud)"],
  ["egressIp", "Egress IP"],
  ["loadBalancer", "Load balancer"],
] as const;

/**
 * Rows by key, folded entry by entry (the windows of a period, or one trend bucket): each entry's
 * nodes are added and the entry can be dropped. Labelled at the end, when the names are known.
 */
export class RowTable {
  /** Labelled "" until `labelled`. */
  readonly #rows = new Map<string, Row>();
  readonly #labels = new Map<string, Label>();

  constructor(private readonly groupBy: GroupBy) {}

  get size(): number {
    return this.#rows.size;
  }

  /** A whole entry; or, after its teams came one by one (`addTeam`), the entry without them. */
  add(entry: UsageEntry): this {
    const teams = entry.paas.teams;
    if (!teams) this.#add("paas", { text: "PaaS (no breakdown returned)" }, "group", entry.paas);
    for (const team of teams ?? []) this.addTeam(team);
    for (const [field, text] of CUSTOMER) {
      const node = entry[field];
      if (node) this.#add(`customer:${field}`, { text }, "customer", node);
    }
    return this;
  }

  addTeam(team: Team): this {
    for (const { key, label, node } of teamNodes(team, this.groupBy)) this.#add(key, label, "group", node);
    return this;
  }

  /**
   * The rows by key, each labelled with the name of its team or project; in place, since a trend
   * has a table a bucket and a copy of every row would cost about what folding them did.
   */
  labelled(names: Map<string, string>): Map<string, Row> {
    for (const [key, row] of this.#rows) row.label = labelText(this.#labels.get(key) as Label, names);
    return this.#rows;
  }

  #add(key: string, label: Label, kind: Row["kind"], node: Priced): void {
    const a = amounts(node);
    const known = this.#rows.get(key);
    if (!known) this.#labels.set(key, label);
    this.#rows.set(
      key,
      known
        ? {
            ...known,
            cost: known.cost.plus(a.cost),
            usage: addUsage(known.usage, a.usage),
            approximate: known.approximate || a.approximate,
          }
        : { key, label: "", kind, ...a },
    );
  }
}

/** The largest groups, then one "other" row for the rest; customer-level rows always shown. */
export function topRows(rows: Iterable<Row>, top: number): Row[] {
  const all = [...rows];
  const groups = all
    .filter((r) => r.kind === "group")
    .sort((a, b) => b.cost.compare(a.cost) || a.label.localeCompare(b.label));
  const shown = groups.slice(0, top);
  const rest = groups.slice(top);
  if (rest.length > 0)
    shown.push({
      key: "other",
      label: `Other (${rest.length} more)`,
      kind: "group",
      cost: Decimal.sum(rest.map((r) => r.cost)),
      usage: rest.reduce((u, r) => addUsage(u, r.usage), noUsage()),
      approximate: rest.some((r) => r.approximate),
    });
  return [...shown, ...all.filter((r) => r.kind === "customer")];
}
