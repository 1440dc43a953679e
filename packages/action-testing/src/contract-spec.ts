// What an action that starts remote work tells the shared contracts (the runner's, GitHub
// deployments') about itself.

export interface ContractSpec {
  actionDir: string;
  /** Valid inputs of the action itself (the token and URL are added). */
  inputs: Record<string, string>;
  /** The emulator outcome kind of the work this action starts. */
  outcome: "build" | "jobRun" | "templateRun" | "addonUpgrade" | "restore" | "restart";
  /**
   * The start request (spec path form). `idempotent` starts (an addon version) may be retried
   * after an ambiguous failure; the others are sent once.
   */
  start: { method: "POST"; path: string; idempotent?: boolean };
  /** The status reads the waiter polls (a prefix of the path). */
  poll: string;
  /** The abort request the emulator must see after a cancel or a timeout; none when the platform cannot abort the work. */
  abort?: { method: "DELETE" | "POST"; path: RegExp };
  outputs: { success: Record<string, string | RegExp>; failure: Record<string, string | RegExp> };
  /** The remote logs the action streams while it waits (their path), if it does. */
  logs?: { path: string };
  /** Malformed inputs, each refused naming `input`, with no request sent. */
  malformed: Array<{ inputs: Record<string, string>; input: string }>;
  /** What the odd-answers contract changes in the answers the action reads (paths under `data`, `*` for every item). */
  answers: {
    /** Members of the start's and the polls' answers that no step reads: left out or null, the result is the same. */
    unread: string[];
    /** Where a poll's answer holds the work's status. */
    status: string;
    /** Reads of the poll path the action makes before it starts the work (an addon read first). */
    readsBeforeStart?: number;
    /** What a poll's answer says of work still running (members under `data`): `{status: "BUILDING", concluded: false}`. */
    running?: Record<string, unknown>;
  };
  /** Inputs carrying secret values that must never be printed, and those values. */
  secrets?: { inputs: Record<string, string>; values: string[] };
}
