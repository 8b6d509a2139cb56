import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListLink } from "./list-link";

// Decision 0354: what a post card is made of, as the server sends it (decision 0351).

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
