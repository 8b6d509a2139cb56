// Shared with the browser (the settings page and the search page's save control): no server imports.
import { categoryLabel } from "../posts/categories.shared";
import { CONDITION_LABELS } from "../posts/listing.shared";
import type { SearchFilters } from "./filters.shared";

/** Decision 0620: how many searches one student may save, and a saved search's name. */
export const SAVED_SEARCH_LIMIT = 20;
export const SAVED_SEARCH_NAME_MAX = 100;
/** The longest query string a saved search keeps (the search address's own bounds fit well within it). */
export const SAVED_SEARCH_QUERY_MAX = 500;

export const SAVED_SEARCH_MESSAGES = {
  limit: "You can save up to 20 searches",
  saved: "Search saved",
  alreadySaved: "You already saved this search",
  renamed: "Name saved",
  cadenceSaved: "Alerts updated",
  deleted: "Saved search deleted",
  nameRequired: "Give the search a name",
  nameTooLong: "Names are at most 100 characters",
  noText: "Type what you're looking for, then save the search",
  notFound: "This saved search doesn't exist.",
  badCadence: "Choose Instant, Daily or Off",
  somethingWentWrong: "Something went wrong",
} as const;

/** The alerts' choices in the settings' order (the schema's SAVED_SEARCH_CADENCES, which the browser cannot import). */
export const SAVED_SEARCH_CADENCE_ORDER = ["instant", "daily", "off"] as const;

export const SAVED_SEARCH_CADENCE_LABELS = {
  instant: "Instant",
  daily: "Daily",
  off: "Off",
} as const;

export const SAVED_SEARCH_CADENCE_HINTS = {
  instant: "In the app and by push, as soon as a match is posted",
  daily: "One e-mail a day at 08:00 with the new matches",
  off: "No alerts; the search stays saved",
} as const;

function dollars(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
}

/** A saved search's filters in words ('Furniture · $10–$40 · Like new · sold included'), or '' for none. */
export function savedSearchFiltersInWords(filters: SearchFilters): string {
  const parts: string[] = [];
  if (filters.category) parts.push(categoryLabel(filters.category));
  const { minPriceCents: min, maxPriceCents: max } = filters;
  if (min !== null && max !== null) parts.push(`${dollars(min)}–${dollars(max)}`);
  else if (min !== null) parts.push(`${dollars(min)} or more`);
  else if (max !== null) parts.push(`up to ${dollars(max)}`);
  if (filters.condition) parts.push(CONDITION_LABELS[filters.condition]);
  if (filters.includeSold) parts.push("sold included");
  return parts.join(" · ");
}
