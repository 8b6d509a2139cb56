// Shared with the browser (the filter bar builds the same addresses): no server imports, and no
// Zod (the header's search box loads this on every page, decision 0340): read-filters.ts reads them.
import type { ListingCondition } from "../posts/listing.shared";

/**
 * The filters and sorts of post search (beyond the spec, decision 0193), read from
 * and written to the address so a search can be shared. Category and newest-first work on
 * every post. Price, condition and sold are the listing fields of decision 0170: the schema reads
 * them now, and server/search/listing.ts applies them once those columns exist.
 */

export const SEARCH_TABS = ["latest", "media", "people"] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];

export const SEARCH_SORTS = ["newest", "price_asc", "price_desc"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_SORT_LABELS: Record<SearchSort, string> = {
  newest: "Newest",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
};

export interface SearchFilters {
  /** A post category value, or null for every category. */
  category: string | null;
  sort: SearchSort;
  /** Cents, inclusive; null for no bound. */
  minPriceCents: number | null;
  maxPriceCents: number | null;
  condition: ListingCondition | null;
  /** Sold listings are hidden unless asked for. */
  includeSold: boolean;
}

export const DEFAULT_SEARCH_FILTERS: SearchFilters = {
  category: null,
  sort: "newest",
  minPriceCents: null,
  maxPriceCents: null,
  condition: null,
  includeSold: false,
};

/** The address parameters of filters (defaults left out), in a stable order. */
export function searchFilterParams(filters: SearchFilters): [string, string][] {
  const out: [string, string][] = [];
  if (filters.category) out.push(["category", filters.category]);
  if (filters.sort !== "newest") out.push(["sort", filters.sort]);
  if (filters.minPriceCents !== null) out.push(["min_price", String(filters.minPriceCents / 100)]);
  if (filters.maxPriceCents !== null) out.push(["max_price", String(filters.maxPriceCents / 100)]);
  if (filters.condition) out.push(["condition", filters.condition]);
  if (filters.includeSold) out.push(["sold", "1"]);
  return out;
}

/** `/search?q=…&show=…&…filters` (show left out for latest, the default). */
export function searchHref(
  q: string,
  show: SearchTab = "latest",
  filters: SearchFilters = DEFAULT_SEARCH_FILTERS,
) {
  const params = new URLSearchParams({ q });
  if (show !== "latest") params.set("show", show);
  if (show !== "people") for (const [name, value] of searchFilterParams(filters)) params.set(name, value);
  return `/search?${params.toString()}`;
}

/**
 * Whether price, condition and sold filters and the price sorts are available: the search page
 * reads it in the browser, so it lives here rather than beside the columns in listing.ts, which
 * imports the database schema (decision 0530).
 */
export const LISTING_FILTERS_READY: boolean = true;
