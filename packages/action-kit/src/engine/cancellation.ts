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
  /** Cancels as a signal would, for another reason (a terminal's reader went away). */
  cancel(reason: string): void;
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
  const cancel = (reason: string) => {
    if (controller.signal.aborted) return;
    cancelledAt = Date.now();
    controller.abort(new Error(reason));
    grace = setTimeout(
      () => start.abort(new Error(`no answer within ${START_GRACE_MS} ms of the cancel (${reason})`)),
      START_GRACE_MS,
    );
    grace.unref();
  };
  const onSignal = (signal: NodeJS.Signals) => cancel(`received ${signal}`);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    startSignal: start.signal,
    get cancelledAt() {
      return cancelledAt;
    },
    cancel,
    dispose: () => {
      clearTimeout(grace);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
