import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { posts } from "../db/schema";
import {
  DEFAULT_SEARCH_FILTERS,
  LISTING_FILTERS_READY,
  type SearchFilters,
  type SearchSort,
} from "./filters.shared";

/**
 * The listing fields of decision 0170 (price, condition, availability) as post search filters and
 * sorts (decision 0193). They live on posts once that columns exist: until
 * LISTING_COLUMNS names them, searches run on category and newest first only, the answer says
 * so (`applied`), and the search page offers no control it cannot honour.
 */
export interface ListingColumns {
  /** `price_cents integer null`. */
  priceCents: AnyPgColumn;
  /** `condition text null`: 'new' | 'like_new' | 'good' | 'fair' | 'for_parts'. */
  condition: AnyPgColumn;
  /** `listing_status text not null`: 'available' | 'reserved' | 'sold'. */
  listingStatus: AnyPgColumn;
}

/** The listing columns (decision 0170). */
export const LISTING_COLUMNS: ListingColumns | null = LISTING_FILTERS_READY
  ? { priceCents: posts.priceCents, condition: posts.condition, listingStatus: posts.listingStatus }
  : null;

/** The filters a search can honour now: the listing ones reset to their defaults until they exist. */
export function applicableFilters(filters: SearchFilters): SearchFilters {
  if (LISTING_COLUMNS) return filters;
  return { ...DEFAULT_SEARCH_FILTERS, category: filters.category };
}

/** The conditions of the listing filters (none until the columns exist). */
export function listingConditions(filters: SearchFilters): SQL[] {
  const columns = LISTING_COLUMNS;
  if (!columns) return [];
  const out: SQL[] = [];
  if (filters.minPriceCents !== null) out.push(sql`${columns.priceCents} >= ${filters.minPriceCents}`);
  if (filters.maxPriceCents !== null) out.push(sql`${columns.priceCents} <= ${filters.maxPriceCents}`);
  if (filters.condition !== null) out.push(sql`${columns.condition} = ${filters.condition}`);
  if (!filters.includeSold) out.push(sql`${columns.listingStatus} <> 'sold'`);
  return out;
}

/** One key of a sort: a column, its direction; keys end with (created_at desc, id desc). */
export interface SortKey {
  column: AnyPgColumn;
  direction: "asc" | "desc";
  /** Integers (price) or timestamps (cursor text) or the uuid tie-breaker. */
  kind: "int" | "time" | "uuid";
  /** A column that may be null: nulls come last whatever the direction. */
  nullable: boolean;
}

const NEWEST: SortKey[] = [
  { column: posts.createdAt, direction: "desc", kind: "time", nullable: false },
  { column: posts.id, direction: "desc", kind: "uuid", nullable: false },
];

/** The keys of a sort, newest first when the sort's columns do not exist yet. */
export function sortKeys(sort: SearchSort): SortKey[] {
  const columns = LISTING_COLUMNS;
  if (!columns || sort === "newest") return NEWEST;
  const price: SortKey = {
    column: columns.priceCents,
    direction: sort === "price_asc" ? "asc" : "desc",
    kind: "int",
    nullable: true,
  };
  return [price, ...NEWEST];
}
