import { describe, expect, it } from "vitest";
import {
  formatPrice,
  isExpired,
  LISTING_EXPIRY_DAYS,
  LISTING_MESSAGES,
  parsePrice,
  priceLine,
  readFeedListingFilters,
} from "./listing.shared";

// Decision 0170: prices in cents, shown as US dollars.
describe("parsePrice", () => {
  it("reads dollars as typed into cents", () => {
    expect(parsePrice("40")).toEqual({ cents: 4000 });
    expect(parsePrice("$40")).toEqual({ cents: 4000 });
    expect(parsePrice(" 12.5 ")).toEqual({ cents: 1250 });
    expect(parsePrice("12.05")).toEqual({ cents: 1205 });
    expect(parsePrice("1,200")).toEqual({ cents: 120000 });
    expect(parsePrice("100000")).toEqual({ cents: 10_000_000 });
  });

  it("reads 0 and 'free' as Free, and an empty field as no price", () => {
    expect(parsePrice("0")).toEqual({ cents: 0 });
    expect(parsePrice("Free")).toEqual({ cents: 0 });
    expect(parsePrice("")).toEqual({ cents: null });
    expect(parsePrice(undefined)).toEqual({ cents: null });
  });

  it("refuses what is not a price, and prices over $100,000", () => {
    for (const text of ["-5", "forty", "12.345", "1e3", "$", "4 0", "1,20"]) {
      expect(parsePrice(text), text).toEqual({ error: LISTING_MESSAGES.badPrice });
    }
    expect(parsePrice("100000.01")).toEqual({ error: LISTING_MESSAGES.priceTooHigh });
    expect(parsePrice("99999999999999999999")).toEqual({ error: LISTING_MESSAGES.priceTooHigh });
  });
});

describe("formatPrice and priceLine", () => {
  it("shows cents as dollars, 0 as Free", () => {
    expect(formatPrice(0)).toBe("Free");
    expect(formatPrice(4000)).toBe("$40");
    expect(formatPrice(1250)).toBe("$12.50");
    expect(formatPrice(120000)).toBe("$1,200");
  });

  it("adds the terms to a price above 0 only", () => {
    expect(priceLine({ priceCents: 4000, priceTerms: "firm" })).toBe("$40 · Firm");
    expect(priceLine({ priceCents: 4000, priceTerms: "offers" })).toBe("$40 · Open to offers");
    expect(priceLine({ priceCents: 0, priceTerms: "offers" })).toBe("Free");
    expect(priceLine({ priceCents: null, priceTerms: null })).toBeNull();
  });
});

describe("expiry (decision 0171)", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

  it("a listing unchanged for more than the constant's days has expired", () => {
    const listing = { priceCents: 4000, condition: null, kind: "selling" as const };
    expect(isExpired({ ...listing, lastModified: daysAgo(LISTING_EXPIRY_DAYS - 1) }, now)).toBe(false);
    expect(isExpired({ ...listing, lastModified: daysAgo(LISTING_EXPIRY_DAYS + 1) }, now)).toBe(true);
    expect(
      isExpired({ priceCents: null, condition: null, kind: "wanted", lastModified: daysAgo(90) }, now),
    ).toBe(true);
  });

  it("a plain post of the spec (no price, condition or Wanted) never expires", () => {
    expect(
      isExpired({ priceCents: null, condition: null, kind: "selling", lastModified: daysAgo(400) }, now),
    ).toBe(false);
  });
});

it("reads the feed's filters from its address", () => {
  expect(readFeedListingFilters(new URLSearchParams("free=1&sold=1"))).toEqual({
    free: true,
    showSold: true,
  });
  expect(readFeedListingFilters(new URLSearchParams("free=yes"))).toEqual({ free: false, showSold: false });
});
