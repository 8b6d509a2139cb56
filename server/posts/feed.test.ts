import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { campuses, postLikes, posts } from "../db/schema";
import type { Page } from "../lists/pages";
import { getThread } from "./comments";
import {
  listFeed,
  listProfilePhotos,
  listProfilePosts,
  listProfileReplies,
  listProfileSaves,
  listSaved,
} from "./feed";
import { insertNewUserPost } from "./new-user-post";
import { getPost } from "./posts";
import { toggleSave } from "./saves";
import type { PostSummary } from "./views";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const SECOND = 1000;

/** Every page of a list, following nextCursor, with a hook between pages. */
async function allPages(
  load: (cursor: string | null) => Promise<Page<PostSummary>>,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await load(cursor);
    pages.push(page.items.map((item) => item.id));
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
    await between(pages.length);
  }
}

async function postMany(member: TestMember, n: number, options: { step?: number } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(options.step ?? SECOND);
    ids.push((await createTestPost(t, member.viewer, { text: `Item ${i}` })).id);
  }
  // Newest first, as the feed shows them.
  return ids.reverse();
}

describe("the feed (spec 2 §2 /home, §7)", () => {
  it("pages by lastModified without duplicates or gaps while posts arrive and get bumped", async () => {
    const seller = await createTestMember(t, { campusId: "smu" });
    const buyer = await createTestMember(t, { campusId: "smu" });
    const start = await postMany(seller, 40);
    const seenEarly = start[3] as string;
    const unseenBumped = start[30] as string;
    const arrived: string[] = [];

    const pages = await allPages(
      (cursor) => listFeed(t.ctx, buyer.viewer, { campusId: "smu", cursor }),
      async (pageIndex) => {
        // Between pages: new posts arrive, and replies bump a post already seen and one not yet seen.
        arrived.push(...(await postMany(seller, 3)));
        if (pageIndex === 1) {
          t.clock.advance(SECOND);
          await createTestComment(t, buyer.viewer, seenEarly);
          t.clock.advance(SECOND);
          await createTestComment(t, buyer.viewer, unseenBumped);
        }
      },
    );

    expect(pages.map((page) => page.length)).toEqual([15, 15, 9]);
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    // Every post that did not move is seen exactly once, in order; the bumped one moved above the reader.
    expect(seen).toEqual(start.filter((id) => id !== unseenBumped));
    expect(seen.some((id) => arrived.includes(id))).toBe(false);

    // A fresh load shows the bumped and the new posts at the top.
    const fresh = await listFeed(t.ctx, buyer.viewer, { campusId: "smu" });
    expect(fresh.items.slice(0, 8).map((item) => item.id)).toEqual([
      ...arrived.slice(3),
      unseenBumped,
      seenEarly,
      ...arrived.slice(0, 3),
    ]);
  });

  it("breaks ties of equal times by id and keeps PostgreSQL's microseconds in the cursor", async () => {
    const member = await createTestMember(t, { campusId: "uf" });
    const ids = await postMany(member, 12, { step: 0 });
    // Three posts written by now() a microsecond apart: a millisecond cursor would merge them.
    const micro = ids.slice(0, 3);
    for (const [index, id] of micro.entries()) {
      await t.ctx.db
        .update(posts)
        .set({ lastModified: sql`${`2030-01-01T00:00:00.00000${index + 1}Z`}::timestamptz` })
        .where(eq(posts.id, id));
    }
    const pages = await allPages((cursor) => listFeed(t.ctx, null, { campusId: "uf", cursor, limit: 1 }));
    const seen = pages.flat();
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect(seen.slice(0, 3)).toEqual([micro[2], micro[1], micro[0]]);
    const rest = ids.slice(3).sort().reverse();
    expect(seen.slice(3)).toEqual(rest);
  });

  it("uses the campus's page size: 15, or 25 where configured", async () => {
    const member = await createTestMember(t, { campusId: "tamu" });
    await postMany(member, 26);
    expect((await listFeed(t.ctx, null, { campusId: "tamu" })).items).toHaveLength(15);
    await t.ctx.db.update(campuses).set({ feedPageSize: 25 }).where(eq(campuses.id, "tamu"));
    await t.ctx.campuses.refresh();
    const page = await listFeed(t.ctx, null, { campusId: "tamu" });
    expect(page.items).toHaveLength(25);
    const last = await listFeed(t.ctx, null, { campusId: "tamu", cursor: page.nextCursor });
    expect(last).toMatchObject({ items: [expect.anything()], nextCursor: null });
  });

  it("filters by category; 'all' and unknown values show every category", async () => {
    const member = await createTestMember(t, { campusId: "duke" });
    const drone = await createTestPost(t, member.viewer, { text: "Drone", category: "drones" });
    t.clock.advance(SECOND);
    const ticket = await createTestPost(t, member.viewer, { text: "Ticket", category: "tickets" });
    t.clock.advance(SECOND);
    const plain = await createTestPost(t, member.viewer, { text: "Anything" });
    const ids = async (category: string | null) =>
      (await listFeed(t.ctx, null, { campusId: "duke", category })).items.map((item) => item.id);
    expect(await ids("drones")).toEqual([drone.id]);
    expect(await ids("tickets")).toEqual([ticket.id]);
    expect(await ids("all")).toEqual([plain.id, ticket.id, drone.id]);
    expect(await ids(null)).toEqual([plain.id, ticket.id, drone.id]);
  });

  it("shows top-level posts only, 'new user' banners included, with what a card renders", async () => {
    const member = await createTestMember(t, { campusId: "okstate", fullName: "Dana Quill" });
    const reader = await createTestMember(t, { campusId: "okstate" });
    t.clock.advance(SECOND);
    await insertNewUserPost(t.ctx.db, { authorId: member.id, campusId: "okstate", at: t.clock.now() });
    t.clock.advance(SECOND);
    const long = await createTestPost(t, member.viewer, { text: "z".repeat(260), files: [await pngFile()] });
    t.clock.advance(SECOND);
    await createTestComment(t, reader.viewer, long.id, { text: "a comment is not in the feed" });
    await toggleSave(t.ctx, reader.viewer, long.id);

    const page = await listFeed(t.ctx, reader.viewer, { campusId: "okstate" });
    expect(page.items.map((item) => item.type)).toEqual(["post", "new user"]);
    const [card, banner] = page.items;
    expect(card).toMatchObject({
      id: long.id,
      author: { id: member.id, firstName: "Dana", lastName: "Q.", verified: true },
      imgCount: 1,
      saveCount: 1,
      commentCount: 1,
      savedByViewer: true,
      ownedByViewer: false,
      parentId: null,
    });
    expect(card?.text?.children[0]?.children[0]).toMatchObject({ text: "z".repeat(260) });
    expect(card?.firstMedia).toMatchObject({ kind: "image", order: 1, width: 64, height: 48 });
    expect(card?.firstMedia?.thumbUrl).toMatch(/-480\.webp$/);
    expect(banner).toMatchObject({ type: "new user", text: null, firstMedia: null });
  });

  it("keeps a private campus's feed and media grid from visitors", async () => {
    await t.ctx.db.update(campuses).set({ privacy: "private" }).where(eq(campuses.id, "harvard"));
    await t.ctx.campuses.refresh();
    const member = await createTestMember(t, { campusId: "harvard" });
    await createTestPost(t, member.viewer);
    await expect(listFeed(t.ctx, null, { campusId: "harvard" })).rejects.toMatchObject({
      code: "private-campus",
    });
    await expect(listFeed(t.ctx, null, { media: true, campusId: "harvard" })).rejects.toMatchObject({
      code: "private-campus",
    });
    expect((await listFeed(t.ctx, member.viewer, { campusId: "harvard" })).items).toHaveLength(1);
  });

  it("refuses a tampered cursor", async () => {
    for (const cursor of ["garbage", Buffer.from('["x","y"]').toString("base64url")]) {
      await expect(listFeed(t.ctx, null, { campusId: "ou", cursor })).rejects.toMatchObject({
        code: "invalid-input",
      });
    }
  });
});

describe("campus isolation", () => {
  it("never shows a UT post on OU, in any list or page", async () => {
    const longhorn = await createTestMember(t, { campusId: "ut" });
    const sooner = await createTestMember(t, { campusId: "ou" });
    const { id } = await createTestPost(t, longhorn.viewer, { text: "Hook 'em", files: [await pngFile()] });
    await createTestComment(t, longhorn.viewer, id);
    // A save across campuses, as one made before decision 0117 refused them.
    await t.ctx.db
      .insert(postLikes)
      .values({ postId: id, userId: sooner.id, campusId: "ut", createdAt: t.clock.now() });
    await toggleSave(t.ctx, longhorn.viewer, id);

    const onOu = [
      await listFeed(t.ctx, sooner.viewer, { campusId: "ou" }),
      await listFeed(t.ctx, sooner.viewer, { media: true, campusId: "ou" }),
      await listSaved(t.ctx, sooner.viewer, { campusId: "ou" }),
      await listProfilePosts(t.ctx, sooner.viewer, { userId: longhorn.id, campusId: "ou" }),
      await listProfilePhotos(t.ctx, sooner.viewer, { userId: longhorn.id, campusId: "ou" }),
      await listProfileReplies(t.ctx, sooner.viewer, { userId: longhorn.id, campusId: "ou" }),
      await listProfileSaves(t.ctx, sooner.viewer, { userId: longhorn.id, campusId: "ou" }),
    ];
    for (const page of onOu) expect(page.items.map((item) => item.id)).not.toContain(id);
    expect(await getPost(t.ctx, sooner.viewer, { postId: id, campusId: "ou" })).toBeNull();
    expect(await getThread(t.ctx, sooner.viewer, { postId: id, campusId: "ou" })).toBeNull();

    // On UT it is everywhere it belongs.
    expect((await listFeed(t.ctx, null, { campusId: "ut" })).items.map((item) => item.id)).toContain(id);
    expect(
      (await listFeed(t.ctx, null, { media: true, campusId: "ut" })).items.map((item) => item.id),
    ).toContain(id);
    expect((await listSaved(t.ctx, sooner.viewer, { campusId: "ut" })).items.map((item) => item.id)).toEqual([
      id,
    ]);
  });
});

describe("the media grid (spec 2 §2 /media)", () => {
  it("lists top-level posts with a photo or video, 15 a page", async () => {
    const member = await createTestMember(t, { campusId: "ucla" });
    const png = await pngFile();
    const withMedia: string[] = [];
    for (let i = 0; i < 17; i++) {
      t.clock.advance(SECOND);
      withMedia.unshift((await createTestPost(t, member.viewer, { files: [png] })).id);
      await createTestPost(t, member.viewer, { text: "text only" });
    }
    t.clock.advance(SECOND);
    await createTestComment(t, member.viewer, withMedia[5] as string, { files: [png] });
    const pages = await allPages((cursor) =>
      listFeed(t.ctx, null, { media: true, campusId: "ucla", cursor }),
    );
    expect(pages.map((page) => page.length)).toEqual([15, 2]);
    // The comment bumped its post to the top; comments themselves are not tiles.
    expect(pages.flat()).toEqual([withMedia[5], ...withMedia.filter((id) => id !== withMedia[5])]);
  });
});
