import fc from "fast-check";

/**
 * docs/product/outages-and-errors.md: cursor times in the cursor's own shape (ISO-8601, microseconds) that name no moment:
 * a day past its month's end (2026-02-30, Feb 29 of a common year), month 0 or 13, 24 o'clock and
 * later, minute or second 60 and later, year 0. Each parser of a cursor must refuse them (400)
 * before SQL, where PostgreSQL's cast fails (a 500).
 */
export const impossibleCursorTime: fc.Arbitrary<string> = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 39 }),
    hour: fc.integer({ min: 0, max: 29 }),
    minute: fc.integer({ min: 0, max: 69 }),
    second: fc.integer({ min: 0, max: 69 }),
    micros: fc.integer({ min: 0, max: 999_999 }),
  })
  .filter(({ year, month, day, hour, minute, second }) => {
    const daysInMonth = month >= 1 && month <= 12 ? new Date(Date.UTC(2000, month, 0)).getUTCDate() : 0;
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const lastDay = month === 2 && !leap ? 28 : daysInMonth;
    return year === 0 || day < 1 || day > lastDay || hour > 23 || minute > 59 || second > 59;
  })
  .map(({ year, month, day, hour, minute, second, micros }) => {
    const two = (n: number) => String(n).padStart(2, "0");
    return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}.${String(micros).padStart(6, "0")}Z`;
  });
