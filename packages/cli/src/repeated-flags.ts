import { InvalidArgumentError } from "commander";

// A flag given twice. Commander keeps the last value, so `--build-arguments A=1 --build-arguments
// B=2` would send B alone. An input of lines takes each as a line; any other is refused rather
// than losing one of its values.

/** The value of a flag seen again after `previous` (undefined the first time). */
export function repeatedFlag(value: string, previous: string | undefined, takesLines: boolean): string {
  if (previous === undefined) return value;
  if (takesLines) return `${previous}\n${value}`;
  throw new InvalidArgumentError("the flag takes one value and was given more than once");
}
