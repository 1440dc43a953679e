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

/**
 * JSON text of `value / 10^places` for an integer `value`: what `JSON.stringify` writes for that
 * number, without converting a double (the emulator writes millions of amounts per large answer).
 * Up to 15 significant digits the texts are the same; beyond, `JSON.stringify` decides.
 */
function scaledText(value: number, places: number, scale: number): string {
  if (value === 0) return "0";
  if (Math.abs(value) >= 1e15) return JSON.stringify(value / scale);
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  const whole = Math.floor(abs / scale);
  let fraction = abs - whole * scale;
  if (fraction === 0) return `${sign}${whole}`;
  let digits = places;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return `${sign}${whole}.${String(fraction).padStart(digits, "0")}`;
}
const centsText = (micros: number) => scaledText(Math.round(micros / 10_000), 2, 100);
const preciseText = (micros: number) => scaledText(Math.round(micros), 6, 1_000_000);

/** The `price` and `usage` members of `priced(a)` as JSON text (no braces), for answers written by hand. */
export function pricedJson(a: Amounts): string {
  return `"price":{"total":${centsText(priceMicros(a))},"cpu":${preciseText(a[CPU] ?? 0)},"memory":${preciseText(a[MEMORY] ?? 0)},"storage":${preciseText(a[STORAGE] ?? 0)},"gpu":${preciseText(a[GPU] ?? 0)}},"usage":{"vcpuHours":${preciseText(a[VCPU_HOURS] ?? 0)},"memoryGibHours":${preciseText(a[MEMORY_GIB_HOURS] ?? 0)},"storageGibHours":${preciseText(a[STORAGE_GIB_HOURS] ?? 0)},"gpuHours":${preciseText(a[GPU_HOURS] ?? 0)}}`;
}
