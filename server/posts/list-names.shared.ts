/**
 * The post lists whose next pages the browser reads as JSON (decision 0106), by
 * name. Pure (no server imports): the browser builds the same addresses.
 */
export const POST_LISTS = [
  "feed",
  "media",
  "saved",
  "profile-posts",
  "profile-photos",
  "profile-replies",
  "profile-likes",
] as const;

export type PostListName = (typeof POST_LISTS)[number];

export function isPostListName(value: string): value is PostListName {
  return (POST_LISTS as readonly string[]).includes(value);
}

/** The lists the media grids show: their pages come as tiles (media-tiles.ts), the others' as post summaries. */
const TILE_LISTS: readonly PostListName[] = ["media", "profile-photos"];

export type TileListName = "media" | "profile-photos";
export type CardListName = Exclude<PostListName, TileListName>;

export function isTileList(list: PostListName): list is TileListName {
  return TILE_LISTS.includes(list);
}

/** Where the next pages are read: `${LIST_PAGES_PATH}/{list}?cursor=…`. */
export const LIST_PAGES_PATH = "/api/lists";

/** What a list is narrowed by, besides the campus of the host. */
export interface ListPageParams {
  /** feed: a category value (spec 2 §2 category filter). */
  category?: string | null;
  /** profile-*: whose profile (the user's id). */
  user?: string | null;
  /** feed, media: the listing filters 'Free' and 'Show sold' (decision 0170). */
  free?: boolean;
  showSold?: boolean;
}

/** The address of the page after `cursor` of a list. */
export function listPageHref(list: PostListName, cursor: string, params: ListPageParams = {}): string {
  const query = new URLSearchParams({ cursor });
  if (params.category) query.set("category", params.category);
  if (params.user) query.set("user", params.user);
  if (params.free) query.set("free", "1");
  if (params.showSold) query.set("sold", "1");
  return `${LIST_PAGES_PATH}/${list}?${query.toString()}`;
}
