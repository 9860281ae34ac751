import { z } from "@hono/zod-openapi";

const iso8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch milliseconds of an ISO 8601 date-time with 0 to 3 fractional digits and `Z` or a `±hh:mm` offset
 * (spec, Limits), or undefined for anything else: more digits, unix numbers, free text, impossible dates.
 */
export function parseTimestamp(value: string): number | undefined {
  const m = iso8601.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const millis = m[7] ? Number(m[7].padEnd(3, "0")) : 0;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(local);
  // Date.UTC rolls over (Feb 30 becomes Mar 2); a round trip catches impossible dates and times.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (!m[8]) return local;
  const offsetHours = Number(m[9]);
  const offsetMinutes = Number(m[10]);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
  return m[8] === "+" ? local - offset : local + offset;
}

/** How far ahead of the service's clock a `requested` may be: a far-future time would win the state forever. */
export const maxClockSkewMs = 10 * 60_000;

export const RequestedTimestamp = z
  .string()
  .refine((value) => parseTimestamp(value) !== undefined, {
    message: "An ISO 8601 date-time with 0 to 3 fractional digits and Z or a ±hh:mm offset, e.g. 2026-11-22T10:15:30.123+01:00.",
  })
  .refine((value) => (parseTimestamp(value) ?? 0) <= Date.now() + maxClockSkewMs, {
    message: "Lies more than 10 minutes in the future.",
  })
  .openapi({
    example: "2026-11-22T10:15:30.123+01:00",
    description:
      "When the data subject made the request: ISO 8601 with 0 to 3 fractional digits and `Z` or a numeric offset " +
      "(kept as sent). At most 10 minutes ahead of the service's clock.",
  });

export const SinceTimestamp = z
  .string()
  .refine((value) => parseTimestamp(value) !== undefined, {
    message: "An ISO 8601 date-time with 0 to 3 fractional digits and Z or a ±hh:mm offset.",
  })
  .openapi({ example: "2026-11-22T10:00:00Z" });
