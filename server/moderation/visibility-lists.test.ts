import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Viewer } from "../accounts/viewer";
import { posts, user } from "../db/schema";
import { getThread } from "../posts/comments";
import {
  listFeed,
  listProfilePhotos,
  listProfilePosts,
  listProfileReplies,
  listProfileSaves,
  listSaved,
} from "../posts/feed";
import { getPost } from "../posts/posts";
import { toggleSave } from "../posts/saves";
import { INDEFINITELY } from "./rules.shared";

/**
 * Decision 0546: a hidden post or comment is gone for everyone but its author, a removed one for
 * everyone, and a suspended author's for everyone but them while the clock is before the end; the
 * lists keep their page sizes. On both databases (the embedded one, and PostgreSQL with DATABASE_URL).
 */

let t: TestContext;
let author: TestMember;
let suspendedAuthor: TestMember;
let reader: TestMember;
const ids: Record<string, string> = {};
const DAY_MS = 24 * 60 * 60 * 1000;
const BANNER = "Hidden while moderators review it";

async function setState(postId: string, state: "hidden" | "removed" | null) {
  await t.ctx.db.update(posts).set({ moderationState: state }).where(eq(posts.id, postId));
}

beforeAll(async () => {
  t = await createTestContext();
  author = await createTestMember(t);
  suspendedAuthor = await createTestMember(t);
  reader = await createTestMember(t);
  const post = async (who: TestMember, name: string, withPhoto = false) => {
    t.clock.advance(60_000);
    ids[name] = (
      await createTestPost(t, who.viewer, { text: name, files: withPhoto ? [await pngFile()] : [] })
    ).id;
  };
  // Oldest first: the feed shows them newest first.
  for (let i = 0; i < 4; i++) await post(author, `shown ${i}`, true);
  await post(author, "hidden", true);
  await post(author, "removed", true);
  await post(suspendedAuthor, "by suspended", true);
  for (let i = 4; i < 6; i++) await post(author, `shown ${i}`, true);
  const onShown = ids["shown 5"] as string;
  t.clock.advance(60_000);
  ids["hidden reply"] = (await createTestComment(t, author.viewer, onShown, { text: "hidden reply" })).id;
  ids["reply to hidden reply"] = (
    await createTestComment(t, reader.viewer, ids["hidden reply"] as string, { text: "below it" })
  ).id;
  t.clock.advance(1000);
  ids["suspended reply"] = (
    await createTestComment(t, suspendedAuthor.viewer, onShown, { text: "suspended reply" })
  ).id;
  t.clock.advance(1000);
  ids["shown reply"] = (await createTestComment(t, reader.viewer, onShown, { text: "shown reply" })).id;
  for (const saver of [reader, author]) {
    for (const name of ["shown 0", "hidden", "removed", "by suspended"]) {
      t.clock.advance(1000);
      await toggleSave(t.ctx, saver.viewer, ids[name] as string);
    }
  }
  await setState(ids.hidden as string, "hidden");
  await setState(ids["hidden reply"] as string, "hidden");
  await setState(ids.removed as string, "removed");
  // Suspended for a week from the clock's now.
  await t.ctx.db
    .update(user)
    .set({ suspendedUntil: new Date(t.clock.now().getTime() + 7 * DAY_MS) })
    .where(eq(user.id, suspendedAuthor.id));
}, 120_000);
afterAll(() => t.close());

const names = (page: { items: { id: string }[] }) =>
  page.items.map((item) => Object.keys(ids).find((name) => ids[name] === item.id) ?? item.id);

describe("hidden, removed and suspended authors' posts in the lists (decision 0546)", () => {
  it("leaves them out of the feed and the media grid for other members and visitors, pages still full", async () => {
    for (const viewer of [reader.viewer, null]) {
      const feed = await listFeed(t.ctx, viewer, { campusId: "ou", limit: 3 });
      expect(names(feed)).toEqual(["shown 5", "shown 4", "shown 3"]);
      const next = await listFeed(t.ctx, viewer, { campusId: "ou", limit: 3, cursor: feed.nextCursor });
      expect(names(next)).toEqual(["shown 2", "shown 1", "shown 0"]);
      const media = await listFeed(t.ctx, viewer, { campusId: "ou", media: true, limit: 8 });
      expect(names(media)).toEqual(["shown 5", "shown 4", "shown 3", "shown 2", "shown 1", "shown 0"]);
      expect(media.nextCursor).toBeNull();
    }
  });

  it("shows the author their hidden post, marked for the banner, but not the removed one", async () => {
    const feed = await listFeed(t.ctx, author.viewer, { campusId: "ou", limit: 4 });
    expect(names(feed)).toEqual(["shown 5", "shown 4", "hidden", "shown 3"]);
    expect(feed.items.map((item) => item.hiddenBanner)).toEqual([null, null, BANNER, null]);
    const own = await listProfilePosts(t.ctx, author.viewer, { campusId: "ou", userId: author.id });
    expect(names(own)).toContain("hidden");
    expect(names(own)).not.toContain("removed");
  });

  it("leaves them out of the profile tabs (posts, photos, replies, saved) of others' reading", async () => {
    for (const viewer of [reader.viewer, null]) {
      const profile = { campusId: "ou", userId: author.id };
      expect(names(await listProfilePosts(t.ctx, viewer, profile))).not.toContain("hidden");
      expect(names(await listProfilePhotos(t.ctx, viewer, { ...profile, limit: 6 }))).toEqual([
        "shown 5",
        "shown 4",
        "shown 3",
        "shown 2",
        "shown 1",
        "shown 0",
      ]);
      expect(names(await listProfileReplies(t.ctx, viewer, profile))).toEqual([]);
      expect(
        (await listProfilePosts(t.ctx, viewer, { campusId: "ou", userId: suspendedAuthor.id })).items,
      ).toEqual([]);
      expect(names(await listProfileSaves(t.ctx, viewer, { campusId: "ou", userId: reader.id }))).toEqual([
        "shown 0",
      ]);
    }
    expect(names(await listSaved(t.ctx, reader.viewer, { campusId: "ou" }))).toEqual(["shown 0"]);
    // The author's own saved list keeps their hidden post.
    expect(names(await listSaved(t.ctx, author.viewer, { campusId: "ou" }))).toEqual(["hidden", "shown 0"]);
    expect(
      names(await listProfileReplies(t.ctx, author.viewer, { campusId: "ou", userId: author.id })),
    ).toEqual(["hidden reply"]);
  });

  it("answers the post page as for a deleted post, but the hidden post's author gets it with the banner's flag", async () => {
    const ref = (name: string) => ({ postId: ids[name] as string, campusId: "ou" });
    for (const viewer of [reader.viewer, null]) {
      expect(await getPost(t.ctx, viewer, ref("hidden"))).toBeNull();
      expect(await getPost(t.ctx, viewer, ref("removed"))).toBeNull();
      expect(await getPost(t.ctx, viewer, ref("by suspended"))).toBeNull();
      expect(await getPost(t.ctx, viewer, ref("shown 0"))).toMatchObject({ hiddenBanner: null });
    }
    expect(await getPost(t.ctx, author.viewer, ref("hidden"))).toMatchObject({
      hiddenBanner: BANNER,
      ownedByViewer: true,
    });
    expect(await getPost(t.ctx, author.viewer, ref("removed"))).toBeNull();
  });

  it("leaves a hidden comment and the replies below it, and a suspended author's, out of a thread", async () => {
    const ref = { postId: ids["shown 5"] as string, campusId: "ou" };
    const top = (thread: Awaited<ReturnType<typeof getThread>>) =>
      (thread ?? []).map((comment) => Object.keys(ids).find((name) => ids[name] === comment.id));
    for (const viewer of [reader.viewer, null]) {
      expect(top(await getThread(t.ctx, viewer, ref))).toEqual(["shown reply"]);
    }
    const authorsView = await getThread(t.ctx, author.viewer, ref);
    expect(top(authorsView)).toEqual(["hidden reply", "shown reply"]);
    expect(authorsView?.[0]?.hiddenBanner).toBe(BANNER);
    expect(top(await getThread(t.ctx, suspendedAuthor.viewer, ref))).toEqual([
      "suspended reply",
      "shown reply",
    ]);
  });

  it("shows a suspended author their own posts, and everyone again once the clock passes the end (no job)", async () => {
    const own = await listProfilePosts(t.ctx, suspendedAuthor.viewer, {
      campusId: "ou",
      userId: suspendedAuthor.id,
    });
    expect(names(own)).toEqual(["by suspended"]);
    const start = t.clock.now();
    try {
      t.clock.advance(7 * DAY_MS + 1000);
      const feed = await listFeed(t.ctx, null, { campusId: "ou", limit: 10 });
      expect(names(feed)).toContain("by suspended");
      expect(names(feed)).not.toContain("hidden");
    } finally {
      t.clock.set(start);
    }
    // A suspension 'until lifted' never ends by the clock.
    await t.ctx.db.update(user).set({ suspendedUntil: INDEFINITELY }).where(eq(user.id, suspendedAuthor.id));
    t.clock.advance(400 * DAY_MS);
    try {
      expect(names(await listFeed(t.ctx, null, { campusId: "ou", showSold: true, limit: 20 }))).not.toContain(
        "by suspended",
      );
    } finally {
      t.clock.set(start);
    }
  });

  it("does not count hidden rows against a page: a page after hidden rows is still full", async () => {
    // Hide every other shown post: pages of 2 still hold 2 while more exist.
    const others = ["shown 4", "shown 2"].map((name) => ids[name] as string);
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(inArray(posts.id, others));
    try {
      const viewer: Viewer | null = null;
      const first = await listFeed(t.ctx, viewer, { campusId: "ou", limit: 2 });
      expect(names(first)).toEqual(["shown 5", "shown 3"]);
      const second = await listFeed(t.ctx, viewer, { campusId: "ou", limit: 2, cursor: first.nextCursor });
      expect(names(second)).toEqual(["shown 1", "shown 0"]);
      expect(second.nextCursor).toBeNull();
    } finally {
      await t.ctx.db.update(posts).set({ moderationState: null }).where(inArray(posts.id, others));
    }
  });
});
