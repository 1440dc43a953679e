import type { UsageEntry } from "@cwp/client";
import type { GroupBy } from "./collect.js";
import { Decimal } from "./decimal.js";

// Rows of the report: the PaaS hierarchy of usage entries grouped as asked, plus the
// customer-level categories, each amount added exactly from unrounded components.

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

type Node = { key: string; label: string; node: Priced };
type Team = NonNullable<UsageEntry["paas"]["teams"]>[number];

/** The nodes of one team at the grouping's level, with their keys and labels. */
function teamNodes(team: Team, groupBy: GroupBy, names: Map<string, string>): Node[] {
  if (groupBy === "team") return [{ key: team.id, label: names.get(team.id) ?? team.id, node: team }];
  const out: Node[] = [];
  for (const project of team.projects ?? []) {
    if (groupBy === "project") {
      out.push({ key: project.id, label: names.get(project.id) ?? project.id, node: project });
      continue;
    }
    for (const group of project.resources ?? []) {
      const items = group.items;
      if (groupBy === "resource-type") {
        // Items when there are any; the group's own figures when the level has none.
        if (items.length === 0)
          out.push({ key: group.resourceType, label: group.resourceType, node: group as Priced });
        for (const item of items)
          out.push({ key: group.resourceType, label: group.resourceType, node: item });
      } else {
        for (const item of items)
          out.push({
            key: item.id,
            label: `${group.resourceType} ${item.id} (${names.get(project.id) ?? project.id})`,
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
 * nodes are added and the entry can be dropped.
 */
export class RowTable {
  readonly rows = new Map<string, Row>();

  constructor(
    private readonly groupBy: GroupBy,
    private readonly names: Map<string, string>,
  ) {}

  /** A whole entry; or, after its teams came one by one (`addTeam`), the entry without them. */
  add(entry: UsageEntry): this {
    const teams = entry.paas.teams;
    if (!teams) this.#add("paas", "PaaS (no breakdown returned)", "group", entry.paas);
    for (const team of teams ?? []) this.addTeam(team);
    for (const [field, label] of CUSTOMER) {
      const node = entry[field];
      if (node) this.#add(`customer:${field}`, label, "customer", node);
    }
    return this;
  }

  addTeam(team: Team): this {
    for (const { key, label, node } of teamNodes(team, this.groupBy, this.names))
      this.#add(key, label, "group", node);
    return this;
  }

  #add(key: string, label: string, kind: Row["kind"], node: Priced): void {
    const a = amounts(node);
    const known = this.rows.get(key);
    this.rows.set(
      key,
      known
        ? {
            ...known,
            cost: known.cost.plus(a.cost),
            usage: addUsage(known.usage, a.usage),
            approximate: known.approximate || a.approximate,
          }
        : { key, label, kind, ...a },
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
