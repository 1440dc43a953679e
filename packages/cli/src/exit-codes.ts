import type { FailureKind } from "@cwp/action-kit/engine";

/** What `cwp <operation>` exits with, by how it ended (documented in the README, tested). */
export const EXIT_CODES: Record<"success" | FailureKind, number> = {
  success: 0,
  /** The work concluded unsuccessfully, a request was refused, or (usage-report) the budget was exceeded where asked. */
  failed: 1,
  /** A bad input: nothing was sent. */
  input: 2,
  /** `--timeout` passed before the work concluded (it was aborted where the platform can). */
  timeout: 3,
  /** A start whose answer never came: the work may have started. */
  unknown: 4,
  /** SIGINT or SIGTERM, after aborting the remote work as the actions do. */
  cancelled: 130,
};
