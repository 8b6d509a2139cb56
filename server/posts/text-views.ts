import { LIST_TEXT_BUDGET } from "./rich-text.shared";
import { toRichTextView } from "./rich-text-schema.shared";
import { limitRichTextView, type RichTextView } from "./rich-text-view.shared";

/** A stored text's render models: the whole (a post's page) and the one lists show (decision 0115). */
export interface TextViews {
  whole: RichTextView | null;
  listed: RichTextView | null;
}

/** How many stored texts keep their views, and the longest kept (most posts are far shorter). */
const KEPT_TEXTS = 2_000;
const KEPT_TEXT_MAX_LENGTH = 2_048;

const kept = new Map<string, TextViews>();

/**
 * The views of a stored text (`posts.text` as JSON text), built once per text and process rather
 * than parsed, validated and cut again for every card of every page (decision 0380). The key is the
 * stored text itself, so an edited post is a new key and nothing is ever stale. Kept views are
 * frozen: every page shares them.
 */
export function textViewsOf(stored: string | null): TextViews {
  if (stored === null) return { whole: null, listed: null };
  const found = kept.get(stored);
  if (found) return found;
  const views = buildTextViews(stored);
  if (stored.length <= KEPT_TEXT_MAX_LENGTH) {
    deepFreeze(views);
    kept.set(stored, views);
    // The oldest out first: a text still on the feed comes back at its next read.
    if (kept.size > KEPT_TEXTS) kept.delete(kept.keys().next().value as string);
  }
  return views;
}

function buildTextViews(stored: string): TextViews {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return { whole: null, listed: null };
  }
  const whole = toRichTextView(parsed);
  return { whole, listed: whole ? limitRichTextView(whole, LIST_TEXT_BUDGET) : null };
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
