import { useRef, useState } from "react";
import { ChevronRightIcon } from "~/app/components/ui/icons";
import type { PostMediaView } from "~/server/posts/views";
import { altText, MediaItem } from "./post-media";

const galleryButtonClass =
  "absolute top-1/2 z-10 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-zinc-900 shadow-md ring-1 ring-zinc-950/10 hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 md:hidden";

/**
 * Decision 0441: a post's photos and videos as a gallery on a phone. Below 770 px
 * (the `md` width) they sit side by side and swipe, one at a time (CSS scroll snapping, no
 * library), with Previous / Next buttons (wrapping round at the ends, so a focused button never
 * disappears) and '2 / 5', which a screen reader hears as 'Photo 2 of 5'. Wider, they stack as
 * before (spec 2 §2 'Post detail': every photo and video). Its own module: the feed's cards, which
 * import ./post-media.tsx, do not carry it in the first load (scripts/js-budget.ts).
 */
export function MediaGallery({
  media,
  authorName,
  eager,
}: {
  media: readonly PostMediaView[];
  authorName: string;
  eager: boolean;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [shown, setShown] = useState(0);
  const count = media.length;

  function onScroll() {
    const list = listRef.current;
    if (!list || list.clientWidth === 0) return;
    const at = Math.round(list.scrollLeft / list.clientWidth);
    setShown(Math.min(count - 1, Math.max(0, at)));
  }

  function show(index: number) {
    const list = listRef.current;
    if (!list) return;
    const next = (index + count) % count;
    list.children[next]?.scrollIntoView({ behavior: "smooth", block: "nearest", inline: "start" });
    setShown(next);
  }

  return (
    <section
      aria-roledescription="carousel"
      aria-label={`Photos and videos from ${authorName}`}
      className="relative max-w-[500px]"
    >
      <ul
        ref={listRef}
        onScroll={onScroll}
        // Focusable, so the arrow keys scroll it too (a scrollable region must be reachable by keyboard).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls on a phone; its focus is how a keyboard scrolls it.
        tabIndex={0}
        className="flex focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 snap-x snap-mandatory items-center overflow-x-auto overscroll-x-contain rounded-xl [scrollbar-width:none] md:snap-none md:flex-col md:items-stretch md:gap-2 md:overflow-visible md:rounded-none"
      >
        {media.map((item, index) => (
          <li
            key={item.id}
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${count}`}
            className="w-full shrink-0 snap-center snap-always"
          >
            <MediaItem
              media={item}
              alt={altText(item, count, authorName)}
              size="regular"
              eager={eager && index === 0}
            />
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => show(shown - 1)} className={`${galleryButtonClass} left-2`}>
        <ChevronRightIcon className="size-6 rotate-180" />
        <span className="sr-only">Previous photo</span>
      </button>
      <button type="button" onClick={() => show(shown + 1)} className={`${galleryButtonClass} right-2`}>
        <ChevronRightIcon className="size-6" />
        <span className="sr-only">Next photo</span>
      </button>
      <p
        aria-live="polite"
        className="pointer-events-none absolute top-2 right-2 rounded-full bg-zinc-950/70 px-2.5 py-1 text-xs font-semibold text-white tabular-nums md:hidden"
      >
        <span aria-hidden="true">{`${shown + 1} / ${count}`}</span>
        <span className="sr-only">{`${media[shown]?.kind === "video" ? "Video" : "Photo"} ${shown + 1} of ${count}`}</span>
      </p>
    </section>
  );
}
