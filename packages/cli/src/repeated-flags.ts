// A flag given twice. Commander keeps the last value, so `--build-arguments A=1 --build-arguments
// B=2` would send B alone, and `--wait false --wait` would wait. An input of lines takes each as a
// line; any other is refused rather than losing one of its values, naming the flag and never a
// value (Commander's own refusal quotes the value, which may be a token).

/** The value of a flag seen again after `previous` (undefined the first time). */
export function repeatedFlag(
  value: string,
  previous: string | undefined,
  flag: { name: string; takesLines: boolean; refuse(message: string): never },
): string {
  if (previous === undefined) return value;
  if (flag.takesLines) return `${previous}\n${value}`;
  return flag.refuse(`error: --${flag.name} takes one value and was given more than once`);
}
