import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { CheckIcon } from "~/app/components/ui/icons";
import { ListLink } from "~/app/components/ui/list-link";
import { useToast } from "~/app/components/ui/toaster";
import { SharedMarkup } from "~/app/lib/shared-markup";
import { ALL_CATEGORIES, CATEGORY_OPTIONS, categoryLabel } from "~/server/posts/categories.shared";
import { ChevronDownIcon, TagIcon } from "./post-icons";

/** spec 2 §2, §9: 'the menu closes 200 ms later'. */
export const CATEGORY_MENU_CLOSE_MS = 200;
/** spec 2 §8, okay. */
export const CATEGORY_SWITCHED = "Category switched";

/** The feed's address for a category (none for 'All categories'), keeping other query values but the page. */
export function categoryHref(pathname: string, search: string, value: string | null): string {
  const params = new URLSearchParams(search);
  params.delete("cursor");
  params.delete("filter");
  if (value && value !== ALL_CATEGORIES.value) params.set("category", value);
  else params.delete("category");
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/**
 * The feed's category filter (spec 2 §2): 'All categories' and the 32, each a link
 * to `?category=value`, so it works before JavaScript loads (a disclosure, not a
 * script menu). Choosing a different one shows 'Category switched' (okay) and the
 * list closes 200 ms later. Arrow keys move between the entries, Escape closes.
 */
export function CategoryFilter({ value }: { value: string | null }) {
  const location = useLocation();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // A click anywhere else closes it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (details.current && !details.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function choose(next: string) {
    const chosen = next === ALL_CATEGORIES.value ? null : next;
    if (chosen !== value) toast.show({ message: CATEGORY_SWITCHED, type: "okay" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(false), CATEGORY_MENU_CLOSE_MS);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDetailsElement>) {
    if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      details.current?.querySelector("summary")?.focus();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = Array.from(list.current?.querySelectorAll<HTMLAnchorElement>("a") ?? []);
    if (links.length === 0) return;
    event.preventDefault();
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    const step = event.key === "ArrowDown" ? 1 : -1;
    const next = index < 0 ? (step > 0 ? 0 : links.length - 1) : (index + step + links.length) % links.length;
    links[next]?.focus();
  }

  const chosen = value ?? ALL_CATEGORIES.value;
  return (
    <details
      ref={details}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={onKeyDown}
      className="relative"
    >
      <summary className="inline-flex h-11 cursor-pointer list-none items-center gap-2 rounded-full border border-zinc-300 bg-white px-4 text-sm font-semibold text-zinc-800 select-none hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
        <TagIcon className="size-4 text-zinc-500" />
        <span className="sr-only">Category: </span>
        {categoryLabel(value)}
        <ChevronDownIcon
          className={`size-4 text-zinc-500 transition-transform ${open ? "rotate-180" : ""}`}
        />
      </summary>
      <div className="absolute top-full left-0 z-30 mt-2 w-[min(18rem,calc(100vw-2rem))] rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl">
        {/* The same 33 links for everyone on this address: rendered once on the server (decision 0380). */}
        <SharedMarkup
          sharedKey={() => categoryOptionsKey(location.pathname, location.search, chosen)}
          className="contents"
        >
          <ul
            ref={list}
            aria-label="Categories"
            className="max-h-[min(26rem,60dvh)] overflow-y-auto overscroll-contain"
          >
            {CATEGORY_OPTIONS.map((option) => {
              const current = option.value === chosen;
              return (
                <li key={option.value}>
                  <ListLink
                    to={categoryHref(location.pathname, location.search, option.value)}
                    preventScrollReset
                    aria-current={current ? "true" : undefined}
                    onClick={() => choose(option.value)}
                    className="category-option"
                  >
                    {option.text}
                    {current ? <CheckIcon className="size-4 shrink-0" /> : null}
                  </ListLink>
                </li>
              );
            })}
          </ul>
        </SharedMarkup>
      </div>
    </details>
  );
}

/**
 * SharedMarkup's key for the category links: the address they keep and the one chosen. A query the
 * filters do not make (anything a request may add) is rendered in place, never kept.
 */
function categoryOptionsKey(pathname: string, search: string, chosen: string): string | null {
  const query = new URLSearchParams(search);
  for (const name of query.keys()) if (!SHARED_QUERY.has(name)) return null;
  if (search.length > 200) return null;
  return JSON.stringify(["category-options", pathname, search, chosen]);
}

/** The feed's own query values (category, Free, Show sold, the page). */
const SHARED_QUERY = new Set(["category", "free", "sold", "cursor", "filter"]);
