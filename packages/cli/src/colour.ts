// Escape codes (colour, a progress line redrawn in place) on a terminal only: a TTY, without
// NO_COLOR (https://no-color.org) and not TERM=dumb. Anywhere else (a file, a pipe, another CI
// system's log) no escape code is written.

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

export type Paint = (code: string, text: string) => string;

export const takesEscapes = (stream: Stream, env: NodeJS.ProcessEnv): boolean =>
  stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== "dumb";

export function painterFor(stream: Stream, env: NodeJS.ProcessEnv): Paint {
  const colour = takesEscapes(stream, env);
  return (code, text) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
}
