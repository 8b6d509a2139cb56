import { describe, expect, it } from "vitest";
import { messageClock, messageDayKey, messageDayLabel } from "./message-time";

describe("a chat's day separators and message times (decision 0456)", () => {
  const now = new Date("2026-03-02T15:00:00Z");

  it("says Today, Yesterday, the weekday and date, then the year for another year", () => {
    expect(messageDayLabel(new Date("2026-03-02T00:10:00Z"), now, "UTC")).toBe("Today");
    // Across the end of February: yesterday is the calendar's day before, not 24 hours before.
    expect(messageDayLabel(new Date("2026-03-01T23:59:00Z"), now, "UTC")).toBe("Yesterday");
    expect(messageDayLabel(new Date("2026-02-28T12:00:00Z"), now, "UTC")).toBe("Sat, Feb 28");
    expect(messageDayLabel(new Date("2025-12-31T12:00:00Z"), now, "UTC")).toBe("Dec 31, 2025");
    expect(messageDayLabel(new Date("2026-01-01T12:00:00Z"), new Date("2026-01-02T08:00:00Z"), "UTC")).toBe(
      "Yesterday",
    );
  });

  it("groups by the calendar day of the zone", () => {
    expect(messageDayKey(new Date("2026-03-02T00:10:00Z"), "UTC")).toBe(
      messageDayKey(new Date("2026-03-02T23:50:00Z"), "UTC"),
    );
    expect(messageDayKey(new Date("2026-03-01T23:59:00Z"), "UTC")).not.toBe(
      messageDayKey(new Date("2026-03-02T00:00:00Z"), "UTC"),
    );
  });

  it("reads the time on a 12-hour clock, marked UTC as the server renders it", () => {
    expect(messageClock(new Date("2026-03-02T15:05:00Z"), "UTC")).toBe("3:05 PM UTC");
    expect(messageClock(new Date("2026-03-02T00:30:00Z"), "UTC")).toBe("12:30 AM UTC");
    expect(messageClock(new Date("2026-03-02T12:00:00Z"), "UTC")).toBe("12:00 PM UTC");
  });
});
