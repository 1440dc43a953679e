import { afterEach, describe, expect, it } from "vitest";
import { parseTimestamp } from "../src/index.js";

// Timestamps as the platform and the inputs write them, read the same on every machine.

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("parseTimestamp", () => {
  it.each(["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/New_York"])(
    "reads a date-time without an offset as UTC, whatever the machine's time zone (TZ=%s)",
    (tz) => {
      // Node reads TZ again when it is set: JavaScript's own Date.parse would now read local time.
      process.env.TZ = tz;
      const utc = Date.UTC(2027, 2, 14, 7, 30);
      expect(parseTimestamp("2027-03-14T07:30:00")).toBe(utc);
      expect(parseTimestamp("2027-03-14 07:30:00")).toBe(utc);
      expect(parseTimestamp("2027-03-14T07:30")).toBe(utc);
      expect(parseTimestamp("2027-03-14T07:30:00.250")).toBe(utc + 250);
      expect(parseTimestamp("2027-03-14")).toBe(Date.UTC(2027, 2, 14));
      // An offset, or Z, says which time it is.
      expect(parseTimestamp("2027-03-14T07:30:00Z")).toBe(utc);
      expect(parseTimestamp("2027-03-14T09:30:00+02:00")).toBe(utc);
      expect(parseTimestamp("2027-03-14T02:30:00-0500")).toBe(utc);
      expect(parseTimestamp(String(utc / 1000))).toBe(utc);
      expect(parseTimestamp("yesterday")).toBeUndefined();
    },
  );
});
