import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, pngFile, type TestMember } from "../../../tests/support/factories";
import { createTestContext, type TestContext } from "../../../tests/support/test-context";
import { campuses } from "../../db/schema";
import { encodeCursor } from "../../lists/cursor";
import { listFeed, listSaved } from "../../posts/feed";
import { listPageHref } from "../../posts/list-names.shared";
import { toggleSave } from "../../posts/saves";
import { POST_MESSAGES } from "../../posts/schemas";
import { LIST_PAGES_ROUTE, listPagesHandler } from "./list-pages";

// Decision 0106: GET /api/lists/{list} as a browser calls it, over HTTP, on a migrated database.

let t: TestContext;
let port = 0;
let close: () => void = () => {};
let geoAdmits = true;
let owner: TestMember;
/** OU's feed, newest first, as its pages show it. */
let feedIds: string[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { page?: { items: Record<string, unknown>[]; nextCursor: string | null }; message?: string };
}

function get(path: string, options: { host?: string; cookie?: string; encoding?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      {
        port,
        path,
        headers: {
          host: options.host ?? "localhost",
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.encoding ? { "accept-encoding": options.encoding } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          let body = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          if (encoding === "br") body = brotliDecompressSync(body);
          if (encoding === "gzip") body = gunzipSync(body);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: JSON.parse(body.toString("utf8")),
          });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

function ids(answer: Answer): unknown[] {
  return answer.json.page?.items.map((item) => item.id) ?? [];
}

beforeAll(async () => {
  t = await createTestContext();
  owner = await createTestMember(t);
  for (let i = 0; i < 17; i++) {
    t.clock.advance(1000);
    await createTestPost(t, owner.viewer, {
      text: `Item ${i}`,
      category: i % 2 ? "furniture" : null,
      files: i === 16 ? [await pngFile()] : [],
    });
  }
  const first = await listFeed(t.ctx, null, { campusId: "ou" });
  feedIds = first.items.map((item) => item.id);
  const app = express();
  app.get(
    LIST_PAGES_ROUTE,
    listPagesHandler({ ctx: t.ctx, auth: t.auth, admitsFeed: async () => geoAdmits }),
  );
  const server = app.listen(0);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});

afterAll(async () => {
  close();
  await t.close();
});

async function feedCursor(): Promise<string> {
  const first = await listFeed(t.ctx, null, { campusId: "ou" });
  if (!first.nextCursor) throw new Error("OU's feed has one page");
  return first.nextCursor;
}

describe("GET /api/lists/{list}", () => {
  it("answers the feed's next page as the domain reads it, dates as ISO strings", async () => {
    const cursor = await feedCursor();
    const answer = await get(listPageHref("feed", cursor));
    const expected = await listFeed(t.ctx, null, { campusId: "ou", cursor });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["cache-control"]).toBe("private, no-store");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(ids(answer)).toEqual(expected.items.map((item) => item.id));
    expect(ids(answer)).not.toContain(feedIds[0]);
    expect(answer.json.page?.nextCursor).toBe(expected.nextCursor);
    const [item] = answer.json.page?.items ?? [];
    expect(item?.createdAt).toBe(expected.items[0]?.createdAt.toISOString());
    expect(item).toMatchObject({ savedByViewer: false, ownedByViewer: false, author: { id: owner.id } });
  });

  it("is compressed in one piece as the browser accepts (brotli, else gzip), and the same page", async () => {
    const cursor = await feedCursor();
    const plain = await get(listPageHref("feed", cursor));
    const brotli = await get(listPageHref("feed", cursor), { encoding: "gzip, deflate, br, zstd" });
    const gzip = await get(listPageHref("feed", cursor), { encoding: "gzip" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(brotli.headers.vary).toBe("Accept-Encoding");
    expect(Number(brotli.headers["content-length"])).toBeLessThan(Number(plain.headers["content-length"]));
    expect(brotli.json).toEqual(plain.json);
    expect(gzip.json).toEqual(plain.json);
  });

  it("filters the feed by category and marks the signed-in viewer's own posts", async () => {
    const first = await listFeed(t.ctx, owner.viewer, { campusId: "ou", category: "furniture", limit: 2 });
    if (!first.nextCursor) throw new Error("expected a second furniture page");
    const answer = await get(listPageHref("feed", first.nextCursor, { category: "furniture" }), {
      cookie: owner.cookie,
    });
    expect(answer.status).toBe(200);
    expect(answer.json.page?.items.length).toBeGreaterThan(0);
    for (const item of answer.json.page?.items ?? []) {
      expect(item).toMatchObject({ category: "furniture", ownedByViewer: true });
    }
  });

  it("answers /saved's next page for the one who saved, and nobody else's", async () => {
    const saver = await createTestMember(t);
    const saved = feedIds.slice(0, 11);
    for (const postId of saved) {
      t.clock.advance(1000);
      await toggleSave(t.ctx, saver.viewer, postId);
    }
    const first = await listSaved(t.ctx, saver.viewer, { campusId: "ou" });
    if (!first.nextCursor) throw new Error("expected a second page of saves (10 a page)");
    const answer = await get(listPageHref("saved", first.nextCursor), { cookie: saver.cookie });
    expect(answer.status).toBe(200);
    // Most recently saved first: the first save is the one left for page 2.
    expect(ids(answer)).toEqual([saved[0]]);
    expect(answer.json.page?.items[0]).toMatchObject({ savedByViewer: true, ownedByViewer: false });
    const owners = await get(listPageHref("saved", first.nextCursor), { cookie: owner.cookie });
    expect(ids(owners)).toEqual([]);
  });

  it("gives the media grids tiles, not post summaries", async () => {
    const cursor = await feedCursor();
    const answer = await get(listPageHref("media", cursor));
    expect(answer.status).toBe(200);
    // The one post with a photo is the newest: the page after OU's first feed cursor has none.
    expect(answer.json.page).toEqual({ items: [], nextCursor: null });
    // A cursor after everything: the owner's photos from the start.
    const future = encodeCursor({
      time: "2099-01-01T00:00:00.000000Z",
      id: "00000000-0000-4000-8000-000000000000",
    });
    const photos = await get(listPageHref("profile-photos", future, { user: owner.id }));
    expect(photos.status).toBe(200);
    const [tile] = photos.json.page?.items ?? [];
    expect(tile).toMatchObject({ author: { username: expect.any(String) }, media: { kind: "image" } });
    expect(tile).not.toHaveProperty("text");
  });

  it("refuses what it cannot answer with a message, 400 / 401 / 403 / 404", async () => {
    const tampered = await get("/api/lists/feed?cursor=not-a-cursor");
    expect(tampered).toMatchObject({ status: 400, json: { message: POST_MESSAGES.badCursor } });
    const noCursor = await get("/api/lists/feed");
    expect(noCursor).toMatchObject({ status: 400, json: { message: POST_MESSAGES.badCursor } });
    const noUser = await get(listPageHref("profile-posts", await feedCursor()));
    expect(noUser).toMatchObject({ status: 400, json: { message: POST_MESSAGES.badCursor } });
    const unknown = await get("/api/lists/everything?cursor=abc");
    expect(unknown.status).toBe(404);
    const signedOut = await get(listPageHref("saved", await feedCursor()));
    expect(signedOut).toMatchObject({ status: 401, json: { message: "Log in or sign up to continue." } });
  });

  it("keeps a private campus's lists from visitors, and the feed from whom the geo gate keeps out", async () => {
    await t.ctx.db.update(campuses).set({ privacy: "private" }).where(eq(campuses.id, "harvard"));
    await t.ctx.campuses.refresh();
    const cursor = await feedCursor();
    const visitor = await get(listPageHref("feed", cursor), { host: "harvard.localhost" });
    expect(visitor).toMatchObject({ status: 403, json: { message: POST_MESSAGES.privateCommunity } });
    const media = await get(listPageHref("media", cursor), { host: "harvard.localhost" });
    expect(media.status).toBe(403);

    geoAdmits = false;
    try {
      const gated = await get(listPageHref("feed", cursor));
      expect(gated.status).toBe(404);
      expect(gated.json.page).toBeUndefined();
    } finally {
      geoAdmits = true;
    }
  });
});
