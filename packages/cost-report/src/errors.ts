// The two ways a report stops before it is made, each told in words a user acts on.

/** An option is wrong (a date that is not one, an end before its start): names the option and what is allowed. */
export class ReportOptionError extends Error {
  override name = "ReportOptionError";
  constructor(
    readonly option: string,
    readonly reason: string,
  ) {
    super(`${option}: ${reason}`);
  }
}

/** What the platform sent cannot be reported on as it is (a time that is not one): says what and where. */
export class ReportDataError extends Error {
  override name = "ReportDataError";
}
