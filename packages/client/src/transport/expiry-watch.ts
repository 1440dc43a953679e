/**
 * One timer for every attempt under way, instead of one each.
 *
 * A timer per attempt (set, then cleared when the answer comes, nearly always long before it
 * fires) cost the client about a twentieth of its loopback throughput. Attempts here are watched
 * in a set, and a single timer wakes at the earliest expiry: most attempts end in milliseconds
 * and their timeouts are alike (30 s), so the timer is rarely moved. When it wakes it expires what
 * is due, to the millisecond, and sleeps until the next expiry.
 */
export interface Expiring {
  /** `performance.now()` time at which `expire` is called, unless unwatched before. */
  readonly expiresAt: number;
  expire(): void;
}

const watched = new Set<Expiring>();
let timer: ReturnType<typeof setTimeout> | undefined;
let wakeAt = Number.POSITIVE_INFINITY;

export function watch(item: Expiring): void {
  watched.add(item);
  if (item.expiresAt < wakeAt) wakeUpAt(item.expiresAt);
}

export function unwatch(item: Expiring): void {
  watched.delete(item);
}

function wakeUpAt(at: number): void {
  clearTimeout(timer);
  wakeAt = at;
  timer = setTimeout(sweep, Math.max(1, Math.ceil(at - performance.now())));
  // An attempt under way keeps the process alive by its socket; this timer must not keep it alive
  // after the attempts it was set for have ended.
  timer.unref();
}

function sweep(): void {
  timer = undefined;
  wakeAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  let next = Number.POSITIVE_INFINITY;
  for (const item of watched) {
    if (item.expiresAt <= now) {
      watched.delete(item);
      item.expire();
    } else if (item.expiresAt < next) next = item.expiresAt;
  }
  if (next !== Number.POSITIVE_INFINITY) wakeUpAt(next);
}
