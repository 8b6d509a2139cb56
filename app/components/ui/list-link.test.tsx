import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CommentIcon } from "~/app/components/posts/post-icons";
import { HomeIcon, IconSprite } from "./icons";
import { ListLink } from "./list-link";

// Decision 0354: what a post card is made of, as the server sends it (decisions 0351, 0353).

describe("ListLink", () => {
  it("is a plain link the app's one listener follows, and works without JavaScript", () => {
    const html = renderToStaticMarkup(
      <ListLink to="/post/abc" className="x">
        Comment
      </ListLink>,
    );
    expect(html).toBe('<a class="x" href="/post/abc" data-discover="true" data-list-link="">Comment</a>');
  });

  it("carries 'keep the scroll position' for the listener", () => {
    const html = renderToStaticMarkup(
      <ListLink to="/home?category=furniture" preventScrollReset>
        Furniture
      </ListLink>,
    );
    expect(html).toContain('data-list-link="keep-scroll"');
    expect(html).toContain('href="/home?category=furniture"');
  });
});

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
