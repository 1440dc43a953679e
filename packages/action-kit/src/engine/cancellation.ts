/** How long a start-work request may go on after a cancel, so its answer says what to abort. */
export const START_GRACE_MS = 5000;
/** Everything after a cancel ends by then: the runner sends SIGTERM at 7.5 s and kills at about 10 s. */
export const AFTER_CANCEL_MS = 9000;

export interface Cancellation {
  /** Aborts at the runner's cancel: what is under way stops. */
  signal: AbortSignal;
  /**
   * For a request that starts remote work: aborts only `START_GRACE_MS` after the cancel. A start
   * aborted in flight may have started the work with nobody told; let it answer, then abort what
   * it started.
   */
  startSignal: AbortSignal;
  /** When the cancel came (epoch ms), if it did. */
  readonly cancelledAt: number | undefined;
  dispose(): void;
}

/**
 * The runner cancels a step with SIGINT, then SIGTERM 7.5 s later. Either one aborts what the
 * action is doing, so it can abort the remote work and fail clearly before it is killed.
 */
export function onCancel(): Cancellation {
  const controller = new AbortController();
  const start = new AbortController();
  let cancelledAt: number | undefined;
  let grace: NodeJS.Timeout | undefined;
  const cancel = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    cancelledAt = Date.now();
    controller.abort(new Error(`received ${signal}`));
    grace = setTimeout(
      () => start.abort(new Error(`no answer within ${START_GRACE_MS} ms of ${signal}`)),
      START_GRACE_MS,
    );
    grace.unref();
  };
  process.on("SIGINT", cancel);
  process.on("SIGTERM", cancel);
  return {
    signal: controller.signal,
    startSignal: start.signal,
    get cancelledAt() {
      return cancelledAt;
    },
    dispose: () => {
      clearTimeout(grace);
      process.off("SIGINT", cancel);
      process.off("SIGTERM", cancel);
    },
  };
}
