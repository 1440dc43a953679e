import {
  type Amounts,
  CPU,
  GPU,
  GPU_HOURS,
  MEMORY,
  MEMORY_GIB_HOURS,
  STORAGE,
  STORAGE_GIB_HOURS,
  VCPU_HOURS,
} from "./ledger.js";

// Money rules of spec 2.2: totals rounded to two decimals (half up, from the unrounded sum);
// components and usage keep six decimals. A parent's total is rounded from its unrounded sum, so
// adding its children's rounded totals does not always give it.

/** Millionths to a two-decimal amount. */
export const cents = (micros: number) => Math.round(micros / 10_000) / 100;
/** Millionths to an amount with six decimals (exact: the value is an integer of millionths). */
export const precise = (micros: number) => Math.round(micros) / 1_000_000;

/**
 * The members of a billing node's `price` (after its `total`) and of its `usage`, in the order they
 * are written, with the amount each holds: one list for both ways answers are made (`priced`, and
 * `JsonBytes.priced` for usage lists).
 */
export const PRICE_COMPONENTS = [
  ["cpu", CPU],
  ["memory", MEMORY],
  ["storage", STORAGE],
  ["gpu", GPU],
] as const;
export const USAGE_QUANTITIES = [
  ["vcpuHours", VCPU_HOURS],
  ["memoryGibHours", MEMORY_GIB_HOURS],
  ["storageGibHours", STORAGE_GIB_HOURS],
  ["gpuHours", GPU_HOURS],
] as const;

/** The unrounded price of amounts (those at `from` in a larger array: `JsonBytes.priced`'s). */
export function priceMicros(a: Amounts, from = 0): number {
  let micros = 0;
  for (let i = 0; i < PRICE_COMPONENTS.length; i++) micros += a[from + (PRICE_COMPONENTS[i]?.[1] ?? 0)] ?? 0;
  return micros;
}

/** The `price` and `usage` members of a billing node. */
export function priced(a: Amounts) {
  const price: Record<string, number> = { total: cents(priceMicros(a)) };
  for (const [name, at] of PRICE_COMPONENTS) price[name] = precise(a[at] ?? 0);
  const usage: Record<string, number> = {};
  for (const [name, at] of USAGE_QUANTITIES) usage[name] = precise(a[at] ?? 0);
  return { price, usage };
}
