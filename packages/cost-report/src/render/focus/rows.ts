import type { UsageEntry } from "@cwp/client";
import { Decimal } from "../../decimal.js";
import { componentSum } from "../../group.js";
import {
  ACCOUNT_OWNER,
  COMPONENTS,
  CUSTOMER_CHARGES,
  customerCharge,
  type FocusCharge,
  type FocusContext,
  type FocusOwner,
  type FocusPeriod,
  focusPeriod,
  paasCharge,
  projectOwner,
} from "./parts.js";

// The rows of the FOCUS dataset, made as the usage is read (a year of a large organisation is tens
// of millions of rows): per team, one row per resource and price component, then per entry its
// customer-level charges. What a row shares with many (its period, charge and owner) is made once
// and handed over as is; each file encodes such a part once.

/** A file of the dataset: focus.csv or focus.parquet. */
export interface FocusSink {
  row(
    period: FocusPeriod,
    charge: FocusCharge,
    owner: FocusOwner,
    resourceId: string | null,
    cost: number,
    quantity: number,
  ): void;
  /** Resolves once the disk has caught up: awaited between teams. */
  drained(): Promise<void>;
  /** Writes what is left and gives the file its name. */
  close(): Promise<void>;
  /** For a report that failed: no half file is left. */
  discard(): Promise<void>;
}

type Team = NonNullable<UsageEntry["paas"]["teams"]>[number];
/** A component's charge with its own unit, and in hours for an item that has no quantity for it. */
type ComponentCharges = { component: (typeof COMPONENTS)[number]; metered: FocusCharge; hourly: FocusCharge };

/** Each customer-level category's charges: one a price component (with a quantity), one in hours. */
const CUSTOMER = CUSTOMER_CHARGES.map((c) => ({
  field: c[0],
  hourly: customerCharge(c),
  metered: COMPONENTS.map((component) => ({ component, charge: customerCharge(c, component) })),
}));

export class FocusRows {
  readonly #types = new Map<string, ComponentCharges[]>();

  constructor(
    private readonly sinks: readonly FocusSink[],
    private readonly context: FocusContext,
  ) {}

  /** The charge period of an entry (what its rows share), from its window or its hour's timestamp. */
  period(at: { window?: UsageEntry["window"]; timestamp?: number | undefined }): FocusPeriod {
    return focusPeriod(at, this.context);
  }

  /** A team's rows, then the disk's pace. */
  async team(team: Team, period: FocusPeriod): Promise<void> {
    const { sinks } = this;
    for (const project of team.projects ?? []) {
      const owner = projectOwner(team.id, project.id, this.context);
      for (const group of project.resources ?? []) {
        const charges = this.#charges(group.resourceType);
        for (const item of group.items) {
          for (const { component, metered, hourly } of charges) {
            const cost = item.price?.[component[0]];
            if (cost === undefined || cost === 0) continue;
            const quantity = item.usage?.[component[1]];
            for (const sink of sinks)
              if (quantity === undefined) sink.row(period, hourly, owner, item.id, cost, period.hours);
              else sink.row(period, metered, owner, item.id, cost, quantity);
          }
        }
      }
    }
    await this.#drained();
  }

  /**
   * An entry's customer-level charges, after its teams' rows: each price component the platform
   * sends a quantity for (BYOC's vCPU-hours and memory GiB-hours) as a row of its own, and what has
   * no quantity (the other components, or a total without them) as one row in hours.
   */
  async customer(entry: UsageEntry, period: FocusPeriod): Promise<void> {
    for (const { field, hourly, metered } of CUSTOMER) {
      const node = entry[field];
      if (!node?.price || node.price.total === 0) continue;
      const price = node.price;
      let rest = componentSum(price) === undefined ? Decimal.from(price.total) : Decimal.zero;
      for (const { component, charge } of metered) {
        const cost = price[component[0]];
        if (cost === undefined || cost === 0) continue;
        const quantity = node.usage?.[component[1]];
        if (quantity === undefined || quantity === 0) rest = rest.plus(Decimal.from(cost));
        else for (const sink of this.sinks) sink.row(period, charge, ACCOUNT_OWNER, null, cost, quantity);
      }
      if (rest.isZero()) continue;
      const amount = Number(rest.toFixed());
      for (const sink of this.sinks) sink.row(period, hourly, ACCOUNT_OWNER, null, amount, period.hours);
    }
    await this.#drained();
  }

  async #drained(): Promise<void> {
    for (const sink of this.sinks) await sink.drained();
  }

  #charges(type: string): ComponentCharges[] {
    let known = this.#types.get(type);
    if (!known) {
      known = COMPONENTS.map((component) => ({
        component,
        metered: paasCharge(type, component, false),
        hourly: paasCharge(type, component, true),
      }));
      this.#types.set(type, known);
    }
    return known;
  }
}
