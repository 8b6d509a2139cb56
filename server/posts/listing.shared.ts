// Listing essentials (decision 0170; beyond the spec): price, condition, kind and
// status of a post, their words and their rules, shared by the server and the browser
// (docs/architecture.md rule 11). No server imports.

/** Decision 0171: a listing unchanged for this many days leaves the feed and asks its owner 'Still available?'. */
export const LISTING_EXPIRY_DAYS = 60;
export const LISTING_EXPIRY_MS = LISTING_EXPIRY_DAYS * 24 * 60 * 60 * 1000;

/** $100,000: above it a price is a typo (and the column's CHECK). */
export const MAX_PRICE_CENTS = 10_000_000;

export const LISTING_CONDITIONS = ["new", "like_new", "good", "fair", "for_parts"] as const;
export type ListingCondition = (typeof LISTING_CONDITIONS)[number];
export const CONDITION_LABELS: Record<ListingCondition, string> = {
  new: "New",
  like_new: "Like new",
  good: "Good",
  fair: "Fair",
  for_parts: "For parts",
};

export const PRICE_TERMS = ["firm", "offers"] as const;
export type PriceTerms = (typeof PRICE_TERMS)[number];
export const PRICE_TERMS_LABELS: Record<PriceTerms, string> = { firm: "Firm", offers: "Open to offers" };

export const LISTING_KINDS = ["selling", "wanted"] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

export const LISTING_STATUSES = ["available", "reserved", "sold"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
export const STATUS_LABELS: Record<ListingStatus, string> = {
  available: "Available",
  reserved: "Reserved",
  sold: "Sold",
};
/** The owner's buttons, by the status they set. */
export const STATUS_ACTIONS: Record<ListingStatus, string> = {
  available: "Mark as available",
  reserved: "Mark as reserved",
  sold: "Mark as sold",
};

export const LISTING_MESSAGES = {
  badPrice: "Enter a price in dollars, like 40 or 12.50.",
  priceTooHigh: "Prices can be up to $100,000.",
  badCondition: "Choose a condition from the list.",
  badListingField: "This listing could not be read. Please try again.",
  notAListing: "Only your own posts can be marked available, reserved or sold.",
  soldCannotBeReserved: "A sold listing can be marked available again, not reserved.",
  notExpired: `Listings can be renewed once they are ${LISTING_EXPIRY_DAYS} days old.`,
  soldCannotBeBoosted: "Sold listings can't be boosted.",
  reservedCannotBeBoosted: "Reserved listings can't be boosted.",
  watchOnlyReserved: "You can ask to be notified only about reserved listings.",
  watchOwn: "This is your own listing.",
  statusChanged: (status: ListingStatus) => `Marked as ${STATUS_LABELS[status].toLowerCase()}.`,
  renewed: "Renewed! Your listing is back at the top of the feed.",
  watching: "We'll let you know when it's available again.",
  unwatched: "You won't be notified about this listing.",
} as const;

/**
 * A price as typed ('40', '$40', '12.50', '1,200') in cents; null for an empty field; a
 * message when it is not a price. 'free' (any case) and 0 are 0 ('Free').
 */
export function parsePrice(input: string | null | undefined): { cents: number | null } | { error: string } {
  const text = (input ?? "").trim();
  if (text === "") return { cents: null };
  if (text.toLowerCase() === "free") return { cents: 0 };
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match?.[1]) return { error: LISTING_MESSAGES.badPrice };
  const dollars = Number(match[1].replaceAll(",", ""));
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  const total = dollars * 100 + cents;
  if (!Number.isSafeInteger(total) || total > MAX_PRICE_CENTS)
    return { error: LISTING_MESSAGES.priceTooHigh };
  return { cents: total };
}

/** Cents as people read them: 'Free', '$40', '$12.50', '$1,200'. */
export function formatPrice(cents: number): string {
  if (cents === 0) return "Free";
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  const whole = dollars.toLocaleString("en-US");
  return rest === 0 ? `$${whole}` : `$${whole}.${String(rest).padStart(2, "0")}`;
}

/** What a post says about itself as a listing (the views' `listing`). */
export interface ListingView {
  priceCents: number | null;
  priceTerms: PriceTerms | null;
  condition: ListingCondition | null;
  kind: ListingKind;
  status: ListingStatus;
  /** Decision 0171: a listing unchanged for LISTING_EXPIRY_DAYS; shown to its owner as 'Still available?'. */
  expired: boolean;
}

/** Whether a post uses any listing field (a plain post of spec 2 never expires, decision 0171). */
export function isListing(fields: {
  priceCents: number | null;
  condition: string | null;
  kind: ListingKind;
}): boolean {
  return fields.priceCents !== null || fields.condition !== null || fields.kind === "wanted";
}

/** Whether the listing has gone unchanged for LISTING_EXPIRY_DAYS at `now`. */
export function isExpired(
  listing: { priceCents: number | null; condition: string | null; kind: ListingKind; lastModified: Date },
  now: Date,
): boolean {
  return isListing(listing) && now.getTime() - listing.lastModified.getTime() > LISTING_EXPIRY_MS;
}

/** The price line of a card: 'Free', '$40 · Firm', '$40 · Open to offers'; null without a price. */
export function priceLine(listing: Pick<ListingView, "priceCents" | "priceTerms">): string | null {
  if (listing.priceCents === null) return null;
  const price = formatPrice(listing.priceCents);
  return listing.priceTerms && listing.priceCents > 0
    ? `${price} · ${PRICE_TERMS_LABELS[listing.priceTerms]}`
    : price;
}

/** The feed's listing filters (decision 0170), as its address carries them: `?free=1`, `?sold=1`. */
export interface FeedListingFilters {
  /** Only free listings (price 0). */
  free: boolean;
  /** Sold listings too (the default view leaves them out). */
  showSold: boolean;
}

export function readFeedListingFilters(params: URLSearchParams): FeedListingFilters {
  return { free: params.get("free") === "1", showSold: params.get("sold") === "1" };
}

/**
 * Decision 0170: sold listings cannot be boosted; decision 0442: nor reserved ones, whose
 * buyer is already found. The ads' assertPostBoostable and the owner's boost buttons both read it.
 */
export function isBoostable(post: { status: ListingStatus }): boolean {
  return post.status === "available";
}

/** The refusal for a listing isBoostable turns down, in the spec's wording for sold ones. */
export function notBoostableMessage(status: ListingStatus): string {
  return status === "reserved"
    ? LISTING_MESSAGES.reservedCannotBeBoosted
    : LISTING_MESSAGES.soldCannotBeBoosted;
}
