import { Writable } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { SignInModalProvider } from "~/app/components/auth/sign-in-modal";
import { type RenderSharedMarkup, SharedMarkupContext } from "~/app/lib/shared-markup";
import { sharedMarkupCache } from "~/app/lib/shared-markup.server";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { toRichTextView } from "~/server/posts/rich-text-schema.shared";
import { textViewsOf } from "~/server/posts/text-views";
import type { PostSummary } from "~/server/posts/views";
import { postSummary } from "~/tests/support/post-summary";
import { PostCard } from "./post-card";

// Decision 0390: a feed card's action row (Comment, Save, Share) is written on the server from
// PostActionsMarkup alone and shared between readers in the same state; the browser hydrates
// PostActions, with its hooks, against that HTML. So the shared HTML must be, byte for byte,
// what PostActions writes in place, in every state a card can be in.

/** A listing with comments and saves, in a category. */
function summary(overrides: Partial<PostSummary> = {}): PostSummary {
  return postSummary({ category: "furniture", commentCount: 2, ...overrides });
}

/** A page at `url` holding `children`, rendered as app/entry.server.tsx renders a document. */
function renderPage(url: string, children: ReactNode, render: RenderSharedMarkup | null): Promise<string> {
  const router = createMemoryRouter(
    [
      {
        id: "root",
        path: "/",
        element: <SignInModalProvider>{children}</SignInModalProvider>,
        children: [{ path: "*", element: null }],
      },
    ],
    { initialEntries: [url], hydrationData: { loaderData: { root: { viewer: null } } } },
  );
  return new Promise((resolve, reject) => {
    let html = "";
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const { pipe } = renderToPipeableStream(
      <SharedMarkupContext value={render}>
        <RouterProvider router={router} />
      </SharedMarkupContext>,
      {
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady: () => pipe(document),
        onShellError: reject,
      },
    );
  });
}

/** The card's <footer>: the action row. */
function footerOf(html: string): string {
  const footer = html.match(/<footer[^>]*>.*<\/footer>/s)?.[0];
  if (!footer) throw new Error(`no footer in ${html}`);
  return footer;
}

const states: [string, Partial<PostSummary>][] = [
  ["a post with comments and saves", {}],
  ["a post saved by the reader", { savedByViewer: true }],
  ["a post nobody commented on or saved", { commentCount: 0, saveCount: 0 }],
  ["a post saved once", { saveCount: 1 }],
  [
    "a comment (no Save)",
    { parentId: "22222222-2222-4222-8222-222222222222", rootId: "22222222-2222-4222-8222-222222222222" },
  ],
];

/** A shared-markup cache that counts the parts a page asks it for. */
function countingCache(): { render: RenderSharedMarkup; asked: () => number } {
  const cache = sharedMarkupCache();
  let asked = 0;
  return {
    render: (key, element) => {
      asked += 1;
      return cache(key, element);
    },
    asked: () => asked,
  };
}

describe("a feed card's actions shared between readers", () => {
  beforeAll(async () => {
    // post-card.tsx loads the row's markup as the server starts; a page rendered before that
    // renders its rows in place.
    await import("./post-actions-markup");
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it.each(states)("writes what PostActions writes in place: %s", async (_label, overrides) => {
    const post = summary(overrides);
    const inPlace = footerOf(await renderPage("/home?category=furniture", <PostCard post={post} />, null));
    const cache = countingCache();
    const shared = footerOf(
      await renderPage("/home?category=furniture", <PostCard post={post} />, cache.render),
    );
    // The card's body and its actions were both shared.
    expect(cache.asked()).toBe(2);
    expect(shared).toBe(inPlace);
    // The plain form (no JavaScript yet) comes back to the page it was sent from.
    if (post.parentId === null) expect(shared).toContain('name="returnTo" value="/home?category=furniture"');
    expect(shared).toContain(post.commentCount > 0 ? `Comment<span class="text-zinc-500` : "Comment</a>");
  });

  it("keeps readers' states apart: a reader who saved the post never gets another's row", async () => {
    const render = sharedMarkupCache();
    const notSaved = footerOf(await renderPage("/home", <PostCard post={summary()} />, render));
    const saved = footerOf(
      await renderPage("/home", <PostCard post={summary({ savedByViewer: true })} />, render),
    );
    expect(notSaved).toContain(">Save</button>");
    expect(saved).toContain(">Saved!</button>");
    // Each page's own address, though the post and its state are the same.
    const other = footerOf(await renderPage("/saved", <PostCard post={summary()} />, render));
    expect(other).toContain('value="/saved"');
  });

  it("renders a row in place for an address too long to share", async () => {
    const cache = countingCache();
    const long = `/search?q=${"a".repeat(300)}`;
    const html = footerOf(await renderPage(long, <PostCard post={summary()} />, cache.render));
    expect(html).toContain(`value="${long}"`);
    // The card's body is shared (its key has no address); its actions are not.
    expect(cache.asked()).toBe(1);
  });
});

describe("a feed card's body shared between readers", () => {
  const storedText = (text: string) => JSON.stringify(plainTextToRichText(text));

  it("is written again when the post's text changes, and reused while it is the same", async () => {
    const render = sharedMarkupCache();
    // Texts as the feed reads them: the views server/posts/text-views.ts keeps, frozen, per text.
    const first = textViewsOf(storedText("Desk lamp, barely used")).listed;
    const edited = textViewsOf(storedText("Desk lamp, now with a new bulb")).listed;
    expect(Object.isFrozen(first)).toBe(true);
    const page = (text: PostSummary["text"]) =>
      renderPage("/home", <PostCard post={summary({ text })} />, render);

    expect(await page(first)).toContain("Desk lamp, barely used");
    const afterEdit = await page(edited);
    expect(afterEdit).toContain("Desk lamp, now with a new bulb");
    expect(afterEdit).not.toContain("barely used");
    // The same text read again (as the next page's read gives it) is the shared one.
    expect(await page(textViewsOf(storedText("Desk lamp, barely used")).listed)).toContain(
      "Desk lamp, barely used",
    );
  });

  it("keys a text that is not shared (not frozen) by its content", async () => {
    const render = sharedMarkupCache();
    const page = (text: string) =>
      renderPage(
        "/home",
        <PostCard post={summary({ text: toRichTextView(plainTextToRichText(text)) })} />,
        render,
      );
    expect(await page("Bike for sale")).toContain("Bike for sale");
    expect(await page("Bike sold to a friend")).toContain("Bike sold to a friend");
  });
});

describe("a listing's card as a shop shows it (decisions 0440, 0441)", () => {
  const sendMessage =
    /<a [^>]*href="\/messages\/new\?to=jamier&amp;post=11111111-1111-4111-8111-111111111111"[^>]*>.*?Send Message/s;

  it("offers Send Message on someone else's listing, to its author and sharing the post", async () => {
    const html = await renderPage("/home", <PostCard post={summary()} />, null);
    expect(html).toMatch(sendMessage);
    expect(html).toContain('<span class="sr-only"> to Jamie</span>');
  });

  it.each([
    ["one's own listing", { ownedByViewer: true }],
    [
      "a post without listing details",
      {
        listing: {
          priceCents: null,
          priceTerms: null,
          condition: null,
          kind: "selling",
          status: "available",
          expired: false,
        },
      },
    ],
    [
      "a comment",
      { parentId: "22222222-2222-4222-8222-222222222222", rootId: "22222222-2222-4222-8222-222222222222" },
    ],
  ] satisfies [string, Partial<PostSummary>][])(
    "has no Send Message button on %s",
    async (_label, overrides) => {
      const html = await renderPage("/home", <PostCard post={summary(overrides)} />, null);
      expect(html).not.toContain("Send Message");
    },
  );

  it("shows the price before the category and the text", async () => {
    const html = await renderPage("/home", <PostCard post={summary()} />, null);
    const price = html.indexOf("$40");
    expect(price).toBeGreaterThan(-1);
    expect(price).toBeLessThan(html.indexOf("Furniture"));
    expect(price).toBeLessThan(html.indexOf("Desk lamp, barely used"));
  });
});
