/**
 * spec 2 §2, spec 1 §2: above 769 px the composers, comments and the set-up wizard open in place or
 * in a modal; at 769 px and below they are pages of their own.
 */
const WIDE_SCREEN_QUERY = "(min-width: 770px)";

export function isWideScreen(): boolean {
  return typeof window !== "undefined" && window.matchMedia(WIDE_SCREEN_QUERY).matches;
}
