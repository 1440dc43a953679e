/**
 * Lines that `SLOW_PATTERN` (309 instructions, within fail-on-regex's bound) takes 60-120 ms each
 * to match on an idle machine: 20 lines of 24,000 Greek letters, 1.2-2.4 s in all.
 */
export function slowLines(): string[] {
  let seed = 1;
  const letter = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return "αβγδεζηθικλμνξοπρστυφχψω "[seed % 25];
  };
  return Array.from({ length: 20 }, () => Array.from({ length: 24_000 }, letter).join(""));
}

export const SLOW_PATTERN = "(α|β)[\\p{Greek}\\s]{300}[αβ]{3}\\d";
