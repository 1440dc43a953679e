/** A bad input: names the input and what is allowed, never its value (it may be a secret). */
export class InputError extends Error {
  override name = "InputError";
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`Input "${input}": ${reason}`);
  }
}

/** Several bad inputs at once, so a user fixes them in one go. */
export class InputErrors extends Error {
  override name = "InputErrors";
  constructor(readonly errors: InputError[]) {
    super(errors.map((e) => e.message).join("\n"));
  }
}
