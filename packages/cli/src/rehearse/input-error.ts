/**
 * Input a rehearsal cannot take (a file it cannot read, a flag out of range, a world file the
 * emulator refuses): exit code 2, named by the flag or file and what is wrong with it.
 */
export class RehearsalInputError extends Error {
  override name = "RehearsalInputError";
}
