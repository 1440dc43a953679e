// Jobs side by side, as GitHub runs them: a job starts as soon as every job it needs has ended,
// each on a runner of its own, at most `limit` at a time (`--jobs`), in the workflow's order where
// several could start. A workflow then takes as long as its longest chain of `needs`.

/**
 * Runs `run` for every job of `order`, each once the jobs it needs (`needs`, those of `order`) have
 * ended. A job whose run throws lets the others that run end, starts none after it, and is thrown.
 */
export async function sideBySide(
  order: readonly string[],
  needs: (id: string) => readonly string[],
  limit: number,
  run: (id: string) => Promise<void>,
): Promise<void> {
  const ended = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const waiting = [...order];
  let failure: { error: unknown } | undefined;
  const ready = (id: string) => needs(id).every((need) => ended.has(need) || !order.includes(need));
  for (;;) {
    for (let i = 0; failure === undefined && i < waiting.length && running.size < limit; ) {
      const id = waiting[i] as string;
      if (!ready(id)) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      const started = run(id)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          running.delete(id);
          ended.add(id);
        });
      running.set(id, started);
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  if (failure !== undefined) throw failure.error;
}
