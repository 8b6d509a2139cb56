import type { UserSummary } from "../lists/user-summary";
import type { ListingView } from "./listing.shared";
import type { PostSummary } from "./views";

/**
 * What a media tile renders (docs/architecture.md rule 4: only what the screen shows):
 * the grid never shows a post's text, so the loaders send this instead of the
 * whole PostSummary (text and preview would triple a page's payload).
 */
export interface MediaTileData {
  id: string;
  author: Pick<UserSummary, "username" | "firstName" | "lastName">;
  /** The square thumbnail: the small WebP of a photo, or the video itself (no poster is stored). */
  media: {
    kind: "image" | "video";
    src: string;
    /** Of `src`, for the img's width/height (no layout shift); null when unknown (videos). */
    width: number | null;
    height: number | null;
  };
  imgCount: number;
  saveCount: number;
  savedByViewer: boolean;
  ownedByViewer: boolean;
  createdAt: Date;
  /** A short plain form of the text, for the tile's accessible name. */
  label: string;
  /** Decision 0170: the tile's price and Wanted / Reserved / Sold labels. */
  listing: Pick<ListingView, "priceCents" | "kind" | "status">;
  /** Decision 0546: 'Hidden while moderators review it', given to the author only (else null). */
  hiddenBanner: string | null;
}

/** The small WebP of a photo is 480 px wide, never enlarged (server/posts/media.ts POST_IMAGE_VARIANTS). */
const THUMB_WIDTH = 480;

/** The thumbnail's size from the recorded size of the large WebP (same ratio, at most 480 wide). */
function thumbSize(
  width: number | null,
  height: number | null,
): { width: number | null; height: number | null } {
  if (!width || !height) return { width: null, height: null };
  const thumbWidth = Math.min(THUMB_WIDTH, width);
  return { width: thumbWidth, height: Math.max(1, Math.round((height * thumbWidth) / width)) };
}

function firstWords(post: PostSummary, max = 80): string {
  const text = post.text?.children
    .map((block) => block.children.map((node) => (node.type === "text" ? node.text : " ")).join(""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A summary with at least one photo or video as a tile; null for a post without media. */
export function toMediaTile(post: PostSummary): MediaTileData | null {
  const first = post.firstMedia;
  if (!first) return null;
  const thumb = first.kind === "image" && first.thumbUrl !== null;
  const size = thumb ? thumbSize(first.width, first.height) : { width: first.width, height: first.height };
  return {
    id: post.id,
    author: {
      username: post.author.username,
      firstName: post.author.firstName,
      lastName: post.author.lastName,
    },
    media: { kind: first.kind, src: thumb && first.thumbUrl ? first.thumbUrl : first.url, ...size },
    imgCount: post.imgCount,
    saveCount: post.saveCount,
    savedByViewer: post.savedByViewer,
    ownedByViewer: post.ownedByViewer,
    createdAt: post.createdAt,
    label: firstWords(post),
    listing: { priceCents: post.listing.priceCents, kind: post.listing.kind, status: post.listing.status },
    hiddenBanner: post.hiddenBanner,
  };
}

/** A page of summaries as tiles (posts without media, which the media lists never return, are dropped). */
export function toMediaTiles(posts: PostSummary[]): MediaTileData[] {
  return posts.flatMap((post) => {
    const tile = toMediaTile(post);
    return tile ? [tile] : [];
  });
}
