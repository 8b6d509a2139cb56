import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatPrice, STATUS_LABELS } from "~/server/posts/listing.shared";
import type { MediaTileData } from "~/server/posts/media-tiles";
import { TileOverlay } from "./tile-overlay";

/**
 * The 3-column grid of spec 2 §2 'Media' (also the profile's Photos tab). Each
 * tile is a link: at 1000 px and below it opens /post/{id} (spec 2 §2 'tapping
 * a tile opens /post/{id}'); wider, it opens /media/{id} and carries the hover /
 * focus overlay. `footer` is a last cell (the 'Click To Load More..' tile).
 */
export function MediaGrid({
  tiles,
  label,
  footer,
  onDeleted,
}: {
  tiles: MediaTileData[];
  label: string;
  footer?: ReactNode;
  /** A tile's owner deleted its post from the overlay. */
  onDeleted?(id: string): void;
}) {
  return (
    <ul aria-label={label} className="grid grid-cols-3 gap-0.5 xs:gap-1">
      {tiles.map((tile, index) => (
        <li key={tile.id}>
          <MediaTile tile={tile} eager={index < 3} onDeleted={() => onDeleted?.(tile.id)} />
        </li>
      ))}
      {footer ? <li>{footer}</li> : null}
    </ul>
  );
}

function tileName(tile: MediaTileData): string {
  const by = `${tile.author.firstName} ${tile.author.lastName}`;
  const what =
    tile.imgCount > 1
      ? `${tile.imgCount} photos or videos`
      : tile.media.kind === "video"
        ? "a video"
        : "a photo";
  // Decision 0170: the price and labels are read out with the tile's name.
  const listing = [
    tile.listing.kind === "wanted" ? "Wanted" : null,
    tile.listing.priceCents !== null ? formatPrice(tile.listing.priceCents) : null,
    tile.listing.status !== "available" ? STATUS_LABELS[tile.listing.status] : null,
  ].filter((part): part is string => part !== null);
  const base = tile.label ? `${by}: ${tile.label} (${what})` : `Post by ${by} (${what})`;
  // Decision 0546: the author hears why the tile is gone for everyone else.
  if (tile.hiddenBanner) listing.push(tile.hiddenBanner);
  return listing.length > 0 ? `${base}, ${listing.join(", ")}` : base;
}

/**
 * Decision 0170: a tile's price and Wanted / Reserved / Sold labels, over its bottom-left corner;
 * decision 0441: the price large, read at a glance as in a shop's grid.
 */
function TileListing({ tile }: { tile: MediaTileData }) {
  const { priceCents, kind, status } = tile.listing;
  const hidden = tile.hiddenBanner !== null;
  if (priceCents === null && kind === "selling" && status === "available" && !hidden) return null;
  const label = "rounded-full px-2 py-0.5 text-[11px] leading-4 font-bold tracking-wide uppercase shadow-sm";
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute bottom-1.5 left-1.5 z-[5] flex max-w-[calc(100%-0.75rem)] flex-wrap items-center gap-1"
    >
      {priceCents !== null ? (
        <span
          className={`rounded-lg bg-white/95 px-2 py-0.5 text-[15px] leading-5 font-extrabold tracking-tight tabular-nums shadow-sm xs:text-base ${status === "sold" ? "text-zinc-500 line-through" : "text-zinc-950"}`}
        >
          {formatPrice(priceCents)}
        </span>
      ) : null}
      {kind === "wanted" ? <span className={`${label} bg-violet-100 text-violet-900`}>Wanted</span> : null}
      {status === "reserved" ? (
        <span className={`${label} bg-amber-100 text-amber-950`}>Reserved</span>
      ) : null}
      {status === "sold" ? <span className={`${label} bg-zinc-900 text-white`}>Sold</span> : null}
      {/* Decision 0546: the author's own hidden post; the card and the post page carry the whole banner. */}
      {hidden ? <span className={`${label} bg-amber-100 text-amber-950`}>Hidden</span> : null}
    </div>
  );
}

export function MediaTile({
  tile,
  eager = false,
  onDeleted,
}: {
  tile: MediaTileData;
  /** The first row is above the fold: no lazy loading there. */
  eager?: boolean;
  onDeleted(): void;
}) {
  const name = tileName(tile);
  const linkClass =
    "absolute inset-0 z-10 focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-brand-600";
  return (
    <div className="group relative aspect-square overflow-hidden bg-zinc-200">
      <Thumbnail tile={tile} eager={eager} />
      {tile.media.kind === "video" ? <PlayBadge /> : tile.imgCount > 1 ? <StackBadge /> : null}
      <TileListing tile={tile} />
      {/* One link per width range; the hidden one is display:none, so only one is ever in the tab order. */}
      <Link to={`/post/${tile.id}`} className={`${linkClass} lg:hidden`}>
        <span className="sr-only">{name}</span>
      </Link>
      <Link to={`/media/${tile.id}`} className={`${linkClass} hidden lg:block`}>
        <span className="sr-only">{name}</span>
      </Link>
      <TileOverlay tile={tile} onDeleted={onDeleted} />
    </div>
  );
}

function Thumbnail({ tile, eager }: { tile: MediaTileData; eager: boolean }) {
  const { media } = tile;
  const className = "absolute inset-0 size-full object-cover";
  if (media.kind === "video") {
    // No poster frame is stored (decision 0082): the browser shows the first frame
    // once it has the metadata; '#t=0.1' asks for a frame rather than black.
    return (
      <video
        src={`${media.src}#t=0.1`}
        preload="metadata"
        muted
        playsInline
        tabIndex={-1}
        aria-hidden="true"
        className={`${className} bg-zinc-800`}
      />
    );
  }
  return (
    <img
      src={media.src}
      alt=""
      width={media.width ?? undefined}
      height={media.height ?? undefined}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={className}
    />
  );
}

function PlayBadge() {
  return (
    <span
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 flex items-center justify-center"
    >
      <span className="flex size-11 items-center justify-center rounded-full bg-zinc-950/55 text-white shadow-lg">
        <svg
          viewBox="0 0 24 24"
          width="22"
          height="22"
          fill="currentColor"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M8 5.5v13a1 1 0 0 0 1.52.85l10.4-6.5a1 1 0 0 0 0-1.7L9.52 4.65A1 1 0 0 0 8 5.5z" />
        </svg>
      </span>
    </span>
  );
}

/** Several photos: a stacked-squares mark in the corner, as galleries show it. */
function StackBadge() {
  return (
    <span
      aria-hidden="true"
      className="pointer-events-none absolute top-1.5 right-1.5 text-white drop-shadow"
    >
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="currentColor"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M7 3h11a3 3 0 0 1 3 3v11a1 1 0 0 1-2 0V6a1 1 0 0 0-1-1H7a1 1 0 0 1 0-2z" />
        <rect x="3" y="7" width="14" height="14" rx="2.5" />
      </svg>
    </span>
  );
}

/**
 * spec 2 §2 'tile "Click To Load More.."': the last cell of the grid while more
 * pages exist. A link to the next page (works without JavaScript); with it, the
 * click loads the page in place.
 */
export function LoadMoreTile({ href, loading, onLoad }: { href: string; loading: boolean; onLoad(): void }) {
  return (
    <Link
      to={href}
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        onLoad();
      }}
      aria-busy={loading || undefined}
      className="flex aspect-square items-center justify-center bg-zinc-100 p-2 text-center text-sm font-semibold text-zinc-700 hover:bg-zinc-200 focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-brand-600"
    >
      {loading ? "Loading..." : "Click To Load More.."}
    </Link>
  );
}
