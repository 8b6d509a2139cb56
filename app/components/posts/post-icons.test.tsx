import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HomeIcon, IconSprite } from "~/app/components/ui/icons";
import { CommentIcon } from "./post-icons";

// Decision 0353: the icons every card repeats are drawn once per page.

describe("the card icons' sprite", () => {
  it("draws a card icon by reference to the page's sprite, which holds its drawing once", () => {
    expect(renderToStaticMarkup(<CommentIcon className="size-5" />)).toBe(
      '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" class="icon size-5"><use href="#icon-Comment"></use></svg>',
    );
    const sprite = renderToStaticMarkup(<IconSprite />);
    expect(sprite).toContain(
      '<symbol id="icon-Comment" viewBox="0 0 24 24"><path d="M7.9 20A9 9 0 1 0 4 16.1L2 22Z"></path></symbol>',
    );
    for (const name of ["Bookmark", "BookmarkFilled", "Share", "Tag", "BadgeCheck"]) {
      expect(sprite).toMatch(new RegExp(`<symbol id="icon-${name}" viewBox="0 0 24 24"><path d="[^"]+"`));
    }
  });

  it("keeps the other icons inline", () => {
    expect(renderToStaticMarkup(<HomeIcon />)).toMatch(/^<svg [^>]*class="icon"><path d="/);
  });
});
