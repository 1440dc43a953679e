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

export const priceMicros = (a: Amounts) =>
  (a[CPU] ?? 0) + (a[MEMORY] ?? 0) + (a[STORAGE] ?? 0) + (a[GPU] ?? 0);

/** The `price` and `usage` members of a billing node. */
export function priced(a: Amounts) {
  return {
    price: {
      total: cents(priceMicros(a)),
      cpu: precise(a[CPU] ?? 0),
      memory: precise(a[MEMORY] ?? 0),
      storage: precise(a[STORAGE] ?? 0),
      gpu: precise(a[GPU] ?? 0),
    },
    usage: {
      vcpuHours: precise(a[VCPU_HOURS] ?? 0),
      memoryGibHours: precise(a[MEMORY_GIB_HOURS] ?? 0),
      storageGibHours: precise(a[STORAGE_GIB_HOURS] ?? 0),
      gpuHours: precise(a[GPU_HOURS] ?? 0),
    },
  };
}
