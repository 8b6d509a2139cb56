/**
 * spec 1 §6: 'Private communities show a "This community is private" gate to
 * logged-out users.' Signed-in users see the community; the generic instance is
 * no community and never private. Whatever reads a campus's content for a page
 * (feed, media) asks this first, so a visitor of a private campus receives none of it.
 */
export function isPrivateToViewer(
  campus: { privacy: "public" | "private"; generic: boolean },
  viewer: { id: string } | null,
): boolean {
  return campus.privacy === "private" && !campus.generic && viewer === null;
}
