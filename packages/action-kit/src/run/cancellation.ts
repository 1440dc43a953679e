/**
 * The runner cancels a step with SIGINT, then SIGTERM 7.5 s later. Either one aborts what the
 * action is doing, so it can abort the remote work and fail clearly before it is killed.
 */
export function onCancel(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const cancel = (signal: NodeJS.Signals) => controller.abort(new Error(`received ${signal}`));
  process.on("SIGINT", cancel);
  process.on("SIGTERM", cancel);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", cancel);
      process.off("SIGTERM", cancel);
    },
  };
}
