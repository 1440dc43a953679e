// Turns a producer that pushes items (a response body read as it arrives) into an async generator
// the caller pulls from. The producer waits until each item is taken, so at most one item is held
// between them; when the caller stops early, the producer's signal aborts and it is awaited.

export async function* pushToPull<T, R>(
  produce: (push: (item: T) => Promise<void>, signal: AbortSignal) => Promise<R>,
): AsyncGenerator<T, R> {
  const stop = new AbortController();
  let held: { item: T } | undefined;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;
  let settled: { ok: true; value: R } | { ok: false; error: unknown } | undefined;
  const push = async (item: T) => {
    held = { item };
    wakeConsumer?.();
    await new Promise<void>((resolve) => {
      wakeProducer = resolve;
    });
    if (stop.signal.aborted) throw stop.signal.reason;
  };
  const running = produce(push, stop.signal).then(
    (value) => {
      settled = { ok: true, value };
    },
    (error: unknown) => {
      settled = { ok: false, error };
    },
  );
  void running.finally(() => wakeConsumer?.());
  try {
    for (;;) {
      if (held) {
        const { item } = held;
        held = undefined;
        yield item;
        // Taken: the producer goes on (if the caller stopped instead, `finally` releases it).
        const taken = wakeProducer;
        wakeProducer = undefined;
        taken?.();
        continue;
      }
      if (settled) {
        if (!settled.ok) throw settled.error;
        return settled.value;
      }
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
      wakeConsumer = undefined;
    }
  } finally {
    if (!settled) {
      stop.abort(new Error("the reader stopped"));
      wakeProducer?.();
      await running;
    }
  }
}
