import { ListLink } from "~/app/components/ui/list-link";
import type { PostMediaView } from "~/server/posts/views";

/**
 * spec 2 §9 'Image display: max height 350 (400 desktop, 200 in chat/preview),
 * max width 500'. Photos carry their width and height, so the box has its final
 * size before the file arrives (no layout shift); a photo narrower than the box is
 * letterboxed on a light ground instead of being cropped.
 */
const sizeClass = {
  regular: "max-h-[350px] md:max-h-[400px]",
  small: "max-h-[200px]",
} as const;

type MediaSize = keyof typeof sizeClass;

export function MediaItem({
  media,
  alt,
  size,
  eager,
}: {
  media: PostMediaView;
  alt: string;
  size: MediaSize;
  eager: boolean;
}) {
  if (media.kind === "video") {
    return (
      // biome-ignore lint/a11y/useMediaCaption: students' own clips come without captions; there is no caption track to offer.
      <video
        controls
        playsInline
        preload="metadata"
        src={media.url}
        aria-label={alt}
        className={`block aspect-video w-full rounded-xl bg-zinc-950 object-contain ${sizeClass[size]}`}
      />
    );
  }
  const hasSize = media.width !== null && media.height !== null;
  return (
    <img
      src={media.url}
      srcSet={media.thumbUrl ? `${media.thumbUrl} 480w, ${media.url} 1080w` : undefined}
      sizes="(max-width: 540px) 100vw, 500px"
      width={media.width ?? undefined}
      height={media.height ?? undefined}
      alt={alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={`block h-auto w-full rounded-xl bg-zinc-100 object-contain ${hasSize ? "" : "aspect-[4/3]"} ${sizeClass[size]}`}
    />
  );
}

interface PostMediaProps {
  media: readonly PostMediaView[];
  /** Whose post, for the alternative text ('Photo 1 of 3 from Jamie R.'). */
  authorName: string;
  size?: MediaSize;
  /** The first photo of the page's main post loads at once; the rest lazily. */
  eager?: boolean;
}

export function altText(media: PostMediaView, count: number, authorName: string): string {
  const kind = media.kind === "video" ? "Video" : "Photo";
  return count > 1 ? `${kind} ${media.order} of ${count} from ${authorName}` : `${kind} from ${authorName}`;
}

/** Every photo and video of a post, in order (the post page, comments). */
export function PostMedia({ media, authorName, size = "regular", eager = false }: PostMediaProps) {
  if (media.length === 0) return null;
  return (
    <ul className="flex max-w-[500px] flex-col gap-2">
      {media.map((item, index) => (
        <li key={item.id}>
          <MediaItem
            media={item}
            alt={altText(item, media.length, authorName)}
            size={size}
            eager={eager && index === 0}
          />
        </li>
      ))}
    </ul>
  );
}

interface FirstMediaProps {
  media: PostMediaView;
  /** How many photos and videos the post has ('+2' on the first one). */
  count: number;
  authorName: string;
  /** The post page the photo opens; videos play in place. */
  postHref: string;
}

/** A card's first photo or video (spec 2 §2 feed), with '+N' when the post has more. */
export function FirstMedia({ media, count, authorName, postHref }: FirstMediaProps) {
  const more =
    count > 1 ? (
      <span className="pointer-events-none absolute top-2 right-2 rounded-full bg-zinc-950/70 px-2.5 py-1 text-xs font-semibold text-white">
        +{count - 1}
        <span className="sr-only"> more</span>
      </span>
    ) : null;
  const alt = altText(media, count, authorName);
  if (media.kind === "video") {
    return (
      <div className="relative max-w-[500px]">
        <MediaItem media={media} alt={alt} size="regular" eager={false} />
        {more}
      </div>
    );
  }
  return (
    <ListLink
      to={postHref}
      className="relative block max-w-[500px] rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <MediaItem media={media} alt={alt} size="regular" eager={false} />
      {more}
    </ListLink>
  );
}
