import { billables, type World } from "../model/world.js";
import type { ResourceType } from "../rules/billing.js";

// The metered history: what every resource used and cost. Each resource has one deterministic
// draw per UTC day; the day is split over its 24 hours by a fixed daily shape, exactly (integer
// millionths, so hours always add up to their day and sums are exact). A range costs O(days) per
// resource, which keeps a year of 50,000 resources fast enough to read. Values are integers in
// millionths (of a currency unit, of a vCPU-hour, ...), so the emulator can emit amounts with more
// precision than the two-decimal totals, as the platform does.

export const HOUR_MS = 3_600_000;
/** Price components then usage quantities, in millionths. */
export const CPU = 0;
export const MEMORY = 1;
export const STORAGE = 2;
export const GPU = 3;
export const VCPU_HOURS = 4;
export const MEMORY_GIB_HOURS = 5;
export const STORAGE_GIB_HOURS = 6;
export const GPU_HOURS = 7;
export type Amounts = Float64Array;
export const zero = (): Amounts => new Float64Array(8);

/** Per unit-hour, in currency units. */
const RATES = { cpu: 0.0315, memory: 0.0042, storage: 0.000137, gpu: 1.89 };
interface Profile {
  vcpu: number;
  memory: number;
  storage: number;
  gpu: number;
  duty: number;
}
const PROFILES: Record<ResourceType, Profile> = {
  service: { vcpu: 1, memory: 2, storage: 0, gpu: 0, duty: 1 },
  job: { vcpu: 2, memory: 4, storage: 0, gpu: 0, duty: 0.2 },
  harness: { vcpu: 2, memory: 8, storage: 10, gpu: 0.5, duty: 0.4 },
  addon: { vcpu: 0.5, memory: 2, storage: 20, gpu: 0, duty: 1 },
  volume: { vcpu: 0, memory: 0, storage: 50, gpu: 0, duty: 1 },
};

export interface Meter {
  index: number;
  uid: string;
  type: ResourceType;
  projectUid: string;
  teamUid: string;
  teamId: string;
  /** The billing customer it is charged to: `organisation`, or the team id of a team with its own. */
  customer: string;
  /** First billed hour (hours since the epoch). */
  fromHour: number;
  /** What its type uses an hour, and how much of the time. */
  profile: Profile;
}
/** Customer-level spend that is not PaaS: BYOC clusters and metered network. */
export interface CustomerMeter {
  index: number;
  customer: string;
  category: "byoc" | "egressIp" | "loadBalancer";
  clusterId?: string;
  name?: string;
  perHour: number;
}

/** A 32-bit hash of integers (deterministic noise for the seed, meter and hour). */
function noise(a: number, b: number, c: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca77) ^ (c * 0xc2b2ae3d);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 0x1_0000_0000;
}

export class Ledger {
  readonly meters: Meter[] = [];
  readonly customerMeters: CustomerMeter[] = [];
  readonly historyStartHour: number;

  constructor(readonly world: World) {
    const seeded = new Date(world.seededAt);
    // At least 13 whole months of history before the month of seeding.
    this.historyStartHour = Date.UTC(seeded.getUTCFullYear(), seeded.getUTCMonth() - 13, 1) / HOUR_MS;
    for (const project of world.projects) {
      const team = world.teams.find((t) => t.id === project.teamId);
      if (!team) continue;
      // Batch projects arrived later, so the history has resources appearing part-way through.
      const fromHour = project.id.endsWith("-batch")
        ? this.historyStartHour + 24 * 250
        : this.historyStartHour;
      for (const b of billables(world, project.id)) {
        this.meters.push({
          index: this.meters.length,
          uid: b.uid,
          type: b.type,
          projectUid: project.uid,
          teamUid: team.uid,
          teamId: team.id,
          customer: team.billing === "own" ? team.id : "organisation",
          fromHour,
          profile: PROFILES[b.type],
        });
      }
    }
    const customers = [...new Set(this.meters.map((m) => m.customer))];
    for (const customer of customers) {
      const add = (category: CustomerMeter["category"], perHour: number, clusterId?: string, name?: string) =>
        this.customerMeters.push({
          index: this.customerMeters.length,
          customer,
          category,
          perHour,
          ...(clusterId ? { clusterId, name } : {}),
        });
      if (customer === "organisation") {
        add("byoc", 0.412, "byoc-aws-eu-1", "AWS eu-west-1");
        add("byoc", 0.197, "byoc-gcp-us-1", "GCP us-central1");
      }
      add("egressIp", customer === "organisation" ? 0.0069 : 0.0041);
      add("loadBalancer", customer === "organisation" ? 0.0342 : 0.0171);
    }
    this.#months = monthsFor(
      `${world.seed}:${this.historyStartHour}:${this.meters.map((m) => `${m.uid}/${m.type}/${m.fromHour}`).join(",")}`,
    );
  }

  /**
   * One UTC day of a PaaS meter (into `out`, which a sum reuses for every day it reads). Read for
   * every meter and day of a report (a year of 50,000 resources: 18 million), so written plainly:
   * no closure, the profile looked up once per meter.
   */
  day(meter: Meter, day: number, out: Amounts = zero()): Amounts {
    if (day * 24 < meter.fromHour) return out.fill(0);
    const profile = meter.profile;
    const seed = this.world.seed;
    if (profile.duty < 1 && noise(seed, meter.index + 7919, day) >= profile.duty) return out.fill(0);
    const factor = 0.6 + 0.8 * noise(seed, meter.index, day);
    const vcpuHours = Math.round(profile.vcpu * 24 * factor * 1e6);
    const memoryGibHours = Math.round(profile.memory * 24 * factor * 1e6);
    const storageGibHours = Math.round(profile.storage * 24 * 1e6);
    const gpuHours = Math.round(profile.gpu * 24 * factor * 1e6);
    out[VCPU_HOURS] = vcpuHours;
    out[MEMORY_GIB_HOURS] = memoryGibHours;
    out[STORAGE_GIB_HOURS] = storageGibHours;
    out[GPU_HOURS] = gpuHours;
    out[CPU] = Math.round(vcpuHours * RATES.cpu);
    out[MEMORY] = Math.round(memoryGibHours * RATES.memory);
    out[STORAGE] = Math.round(storageGibHours * RATES.storage);
    out[GPU] = Math.round(gpuHours * RATES.gpu);
    return out;
  }

  /** One UTC day of customer-level spend (BYOC allocations carry usage too). */
  customerDay(meter: CustomerMeter, day: number, out: Amounts = zero()): Amounts {
    out.fill(0);
    if (day * 24 < this.historyStartHour) return out;
    const price = Math.round(
      meter.perHour * 24 * (0.8 + 0.4 * noise(this.world.seed, 10_000 + meter.index, day)) * 1e6,
    );
    if (meter.category === "byoc") {
      out[CPU] = Math.round(price * 0.7);
      out[MEMORY] = price - (out[CPU] ?? 0);
      out[VCPU_HOURS] = Math.round(price * 60);
      out[MEMORY_GIB_HOURS] = Math.round(price * 240);
    } else out[CPU] = price;
    return out;
  }

  /**
   * A PaaS meter summed over [fromHour, toHour): whole calendar months from the month sums (a
   * year-long window of 50,000 resources reads 12 sums each, not 365 days), the rest by day.
   */
  sum(meter: Meter, fromHour: number, toHour: number, into: Amounts = zero()): Amounts {
    // A range shorter than any month holds no whole one (an hour, a day: most reads).
    if (toHour - fromHour < SHORTEST_MONTH_HOURS)
      return sumDays((d, out) => this.day(meter, d, out), fromHour, toHour, into);
    for (const part of this.#parts(fromHour, toHour)) {
      if (part.wholeMonth) {
        const month = this.#monthSum(meter, part.from, part.to);
        for (let i = 0; i < 8; i += 1) into[i] = (into[i] ?? 0) + (month[i] ?? 0);
      } else sumDays((d, out) => this.day(meter, d, out), part.from, part.to, into);
    }
    return into;
  }

  /** A range cut at month starts, for every meter of a read alike: the last one is kept. */
  #lastParts: { fromHour: number; toHour: number; parts: RangePart[] } | undefined;
  #parts(fromHour: number, toHour: number): RangePart[] {
    const last = this.#lastParts;
    if (last?.fromHour === fromHour && last.toHour === toHour) return last.parts;
    const parts: RangePart[] = [];
    for (let hour = fromHour; hour < toHour; ) {
      const next = nextMonthHour(hour);
      parts.push({
        from: hour,
        to: Math.min(next, toHour),
        wholeMonth: next <= toHour && monthStartHour(hour) === hour,
      });
      hour = Math.min(next, toHour);
    }
    this.#lastParts = { fromHour, toHour, parts };
    return parts;
  }

  /**
   * Sums every whole month of the history before `now` for every meter, ahead of the first read:
   * what the platform has ready, and a large organisation's first year-long report would
   * otherwise wait for (50,000 resources: 20 million days).
   */
  warm(now: number): void {
    const end = Math.floor(now / HOUR_MS);
    for (let hour = this.historyStartHour; nextMonthHour(hour) <= end; hour = nextMonthHour(hour))
      for (const meter of this.meters) this.#monthSum(meter, hour, nextMonthHour(hour));
  }

  /** A meter's sum of the calendar month [startHour, nextHour), summed on its first read. */
  #monthSum(meter: Meter, startHour: number, nextHour: number): Amounts {
    const month = this.#monthSums(startHour);
    const at = 8 * meter.index;
    const values = month.values.subarray(at, at + 8);
    if (!month.done[meter.index]) {
      sumDays((d, out) => this.day(meter, d, out), startHour, nextHour, values);
      month.done[meter.index] = 1;
    }
    return values;
  }

  /** Every meter's sum of one calendar month (by its first hour), filled as meters are read. */
  readonly #months: MonthSums;
  #monthSums(startHour: number) {
    let month = this.#months.get(startHour);
    if (!month) {
      month = {
        values: new Float64Array(8 * this.meters.length),
        done: new Uint8Array(this.meters.length),
      };
      this.#months.set(startHour, month);
    }
    return month;
  }

  customerSum(meter: CustomerMeter, fromHour: number, toHour: number, into: Amounts = zero()): Amounts {
    return sumDays((d, out) => this.customerDay(meter, d, out), fromHour, toHour, into);
  }
}

const SHORTEST_MONTH_HOURS = 28 * 24;
const monthStartHour = (hour: number) => {
  const d = new Date(hour * HOUR_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / HOUR_MS;
};
const nextMonthHour = (hour: number) => {
  const d = new Date(hour * HOUR_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / HOUR_MS;
};

/**
 * The daily shape: how a day splits over its hours (busier in the UTC afternoon). Integer weights
 * so that hour shares of a day are exact.
 */
const SHAPE = Array.from(
  { length: 24 },
  (_, h) => 8 + Math.round(4 * Math.sin(((h - 6) / 24) * 2 * Math.PI)),
);
/** CUMULATIVE[h]: the weight of the hours before h. */
const CUMULATIVE = [0];
for (const w of SHAPE) CUMULATIVE.push((CUMULATIVE.at(-1) ?? 0) + w);
const SHAPE_TOTAL = CUMULATIVE[24] as number;

/** The part of a day's integer value that falls in its hours [from, to): exact shares of the shape. */
const share = (value: number, from: number, to: number) =>
  Math.floor((value * (CUMULATIVE[to] as number)) / SHAPE_TOTAL) -
  Math.floor((value * (CUMULATIVE[from] as number)) / SHAPE_TOTAL);

/** Sums whole days at once and the hours of partial days by their shares. */
const scratch = zero();
function sumDays(
  day: (d: number, out: Amounts) => Amounts,
  fromHour: number,
  toHour: number,
  into: Amounts,
): Amounts {
  for (let d = Math.floor(fromHour / 24); d * 24 < toHour; d += 1) {
    const from = Math.max(0, fromHour - d * 24);
    const to = Math.min(24, toHour - d * 24);
    const values = day(d, scratch);
    for (let i = 0; i < 8; i += 1) {
      const v = values[i] ?? 0;
      if (v !== 0) into[i] = (into[i] ?? 0) + (from === 0 && to === 24 ? v : share(v, from, to));
    }
  }
  return into;
}

/** Adds the amounts at `from` in `more` (by default its first) to `into`. */
export function add(into: Amounts, more: Float64Array, from = 0): Amounts {
  for (let i = 0; i < 8; i += 1) (into as Float64Array)[i] = (into[i] ?? 0) + (more[from + i] ?? 0);
  return into;
}

/** A part of a summed range: a whole calendar month (summed once), or days and hours. */
type RangePart = { from: number; to: number; wholeMonth: boolean };
type MonthSums = Map<number, { values: Float64Array; done: Uint8Array }>;
/**
 * The month sums of the last ledger made, by what they are computed from (the seed, the history's
 * start and the meters): a reset seeds the same world again and finds its months already summed.
 * One kept: emulators of other worlds in one process only sum again.
 */
let lastMonths: { key: string; months: MonthSums } | undefined;
function monthsFor(key: string): MonthSums {
  if (lastMonths?.key !== key) lastMonths = { key, months: new Map() };
  return lastMonths.months;
}

/** One ledger per world, made on its first billing read. */
const ledgers = new WeakMap<World, Ledger>();
export function ledgerOf(world: World): Ledger {
  let ledger = ledgers.get(world);
  if (!ledger) {
    ledger = new Ledger(world);
    ledgers.set(world, ledger);
  }
  return ledger;
}
