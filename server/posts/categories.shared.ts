// Shared with the browser (the category picker): no server imports.

/** One entry of the category picker: the text shown and the lower-case value stored on a post. */
export interface Category {
  text: string;
  value: string;
}

/** spec 2 §3 'Categories': the picker's first entry, a filter only, never stored on a post. */
export const ALL_CATEGORIES = { text: "All categories", value: "all" } as const satisfies Category;

const CATEGORY_TEXTS = [
  "Audio & Speakers",
  "Auto parts & Accessories",
  "Books/Movies/Music",
  "Clothing/Shoes/Accessories",
  "Cars & Trucks",
  "Cameras & Photography",
  "Cell phones & Accessories",
  "Collectibles & Art",
  "Computers & Accessories",
  "Drones",
  "Exercise",
  "Jewelry & Accessories",
  "Furniture",
  "Health & Beauty",
  "Housing & Apartments",
  "Home decor",
  "Household",
  "Kitchen & Dining",
  "Musical instruments",
  "Motorcycles",
  "Pet supplies",
  "School supplies",
  "Sports & Outdoors",
  "Tickets",
  "Tires & Rims",
  "Toys/Games/Hobbies",
  "Trading cards",
  "TVs & Media players",
  "Video games & Consoles",
  "Virtual reality",
  "Wearables",
  "3D Printers & Supplies",
] as const;

/** spec 2 §3: the 32 categories a post may carry, in the spec's order; the value is the text in lower case. */
export const CATEGORIES: readonly Category[] = CATEGORY_TEXTS.map((text) => ({
  text,
  value: text.toLowerCase(),
}));

/** What the category picker lists: 'All categories' first, then the 32 (spec 2 §3). */
export const CATEGORY_OPTIONS: readonly Category[] = [ALL_CATEGORIES, ...CATEGORIES];

const byValue = new Map(CATEGORIES.map((category) => [category.value, category]));

/** Whether a value is one a post may be stored with ('all' is a filter, not a category). */
export function isPostCategory(value: string): boolean {
  return byValue.has(value);
}

/** The category of a stored value, or null for an unknown value. */
export function getCategory(value: string): Category | null {
  return byValue.get(value) ?? null;
}

/**
 * A feed filter from the picker or a query parameter: a post category, or null
 * for 'All categories', an empty value or anything unknown (spec 2 §2 category filter).
 */
export function categoryFilter(value: string | null | undefined): string | null {
  if (!value || value === ALL_CATEGORIES.value) return null;
  return isPostCategory(value) ? value : null;
}

/** The text a chosen value shows: a category's name, or 'All categories' for none (spec 2 §3). */
export function categoryLabel(value: string | null): string {
  return (value ? getCategory(value)?.text : null) ?? ALL_CATEGORIES.text;
}
