import { describe, expect, it } from "vitest";
import { formatUnreadCount, unreadLabel } from "./unread-badge";

describe("formatUnreadCount", () => {
  it("shows nothing when there is nothing unread", () => {
    expect(formatUnreadCount(0)).toBeNull();
    expect(formatUnreadCount(-2)).toBeNull();
    expect(formatUnreadCount(Number.NaN)).toBeNull();
  });

  it("shows the count up to 99", () => {
    expect(formatUnreadCount(1)).toBe("1");
    expect(formatUnreadCount(42)).toBe("42");
    expect(formatUnreadCount(99)).toBe("99");
  });

  it("caps larger counts at 99+", () => {
    expect(formatUnreadCount(100)).toBe("99+");
    expect(formatUnreadCount(12_000)).toBe("99+");
  });
});

describe("unreadLabel", () => {
  it("reads the badge for screen readers", () => {
    expect(unreadLabel(3)).toBe("3 unread");
    expect(unreadLabel(250)).toBe("99+ unread");
    expect(unreadLabel(0)).toBeNull();
  });
});
