// Reading search filters from an address (the loaders' half of filters.ts, apart so that the
// browser's search box does not load Zod, decision 0340). No server imports.
import { z } from "zod";
import { categoryFilter } from "../posts/categories.shared";
import { LISTING_CONDITIONS } from "../posts/listing.shared";
import { SEARCH_SORTS, type SearchFilters } from "./filters.shared";

/** Whole dollars in the address; cents in the database (spec 2 §9 'Money stored in cents'). */
const MAX_PRICE_DOLLARS = 1_000_000;
const dollars = z.coerce.number().int().min(0).max(MAX_PRICE_DOLLARS);

/** A malformed value is dropped (the search still runs), never an error page: addresses get shared and edited. */
const searchParamsSchema = z.object({
  category: z.string().max(100).nullish().catch(null),
  sort: z.enum(SEARCH_SORTS).nullish().catch(null),
  min_price: dollars.nullish().catch(null),
  max_price: dollars.nullish().catch(null),
  condition: z.enum(LISTING_CONDITIONS).nullish().catch(null),
  sold: z.enum(["1"]).nullish().catch(null),
});

function param(params: URLSearchParams, name: string): string | null {
  const value = params.get(name);
  return value === null || value === "" ? null : value;
}

/** The filters of a search address (`/search?q=…&category=…&sort=…&min_price=…`). */
export function readSearchFilters(params: URLSearchParams): SearchFilters {
  const parsed = searchParamsSchema.parse({
    category: param(params, "category"),
    sort: param(params, "sort"),
    min_price: param(params, "min_price"),
    max_price: param(params, "max_price"),
    condition: param(params, "condition"),
    sold: param(params, "sold"),
  });
  let min = parsed.min_price ?? null;
  let max = parsed.max_price ?? null;
  if (min !== null && max !== null && min > max) [min, max] = [max, min];
  return {
    category: categoryFilter(parsed.category),
    sort: parsed.sort ?? "newest",
    minPriceCents: min === null ? null : min * 100,
    maxPriceCents: max === null ? null : max * 100,
    condition: parsed.condition ?? null,
    includeSold: parsed.sold === "1",
  };
}
