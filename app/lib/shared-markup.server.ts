import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { RenderSharedMarkup } from "./shared-markup";

/** How many parts a process keeps (a post card's part is about 2.5 KB of HTML and 1 KB of key). */
export const SHARED_MARKUP_ENTRIES = 3_000;

/**
 * The HTML of SharedMarkup parts, by their key, least recently used first (a Map keeps insertion
 * order). A page's cards are mostly the ones every reader of the campus sees, so most are found.
 */
export function sharedMarkupCache(limit: number = SHARED_MARKUP_ENTRIES): RenderSharedMarkup {
  const entries = new Map<string, string>();
  let rendered = 0;
  return (key: string, element: () => ReactNode) => {
    const found = entries.get(key);
    if (found !== undefined) {
      entries.delete(key);
      entries.set(key, found);
      return found;
    }
    rendered += 1;
    // Ids made inside (useId) must not repeat another part's on the same page.
    const html = renderToString(element(), { identifierPrefix: `s${rendered.toString(36)}-` });
    entries.set(key, html);
    if (entries.size > limit) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return html;
  };
}
