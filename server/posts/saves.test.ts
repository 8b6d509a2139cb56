import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { postLikes, posts } from "../db/schema";
import { getPost } from "./posts";
import { listPostSavers, toggleSave } from "./saves";

let t: TestContext;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  alice = await createTestMember(t, { fullName: "Alice Seller" });
  bob = await createTestMember(t, { fullName: "Bob Buyer" });
});
afterAll(() => t.close());

async function row(postId: string) {
  const [found] = await t.ctx.db.select().from(posts).where(eq(posts.id, postId));
  return found;
}

describe("saving (spec 2 §4)", () => {
  it("toggles the save, keeping like_count in step, per person", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    expect(await toggleSave(t.ctx, bob.viewer, id)).toEqual({ saved: true, saveCount: 1 });
    expect(await toggleSave(t.ctx, alice.viewer, id)).toEqual({ saved: true, saveCount: 2 });
    expect((await getPost(t.ctx, bob.viewer, { postId: id, campusId: "ou" }))?.savedByViewer).toBe(true);
    expect(await toggleSave(t.ctx, bob.viewer, id)).toEqual({ saved: false, saveCount: 1 });
    const seenByBob = await getPost(t.ctx, bob.viewer, { postId: id, campusId: "ou" });
    expect(seenByBob).toMatchObject({ savedByViewer: false, saveCount: 1 });
    expect((await getPost(t.ctx, alice.viewer, { postId: id, campusId: "ou" }))?.savedByViewer).toBe(true);
    const [saves] = await t.ctx.db.select({ n: count() }).from(postLikes).where(eq(postLikes.postId, id));
    expect(saves?.n).toBe(1);
  });

  it("keeps count when one person toggles many times at once", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    const results = await Promise.all(Array.from({ length: 5 }, () => toggleSave(t.ctx, bob.viewer, id)));
    expect(results.filter((result) => result.saved)).toHaveLength(3);
    const post = await row(id);
    expect(post?.saveCount).toBe(1);
  });

  it("asks visitors to sign in with reason 'like' and refuses comments and missing posts", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    await expect(toggleSave(t.ctx, null, id)).rejects.toMatchObject({
      refusal: { kind: "sign-in", reason: "like" },
    });
    const comment = await createTestComment(t, bob.viewer, id);
    await expect(toggleSave(t.ctx, bob.viewer, comment.id)).rejects.toMatchObject({ code: "invalid-input" });
    await expect(toggleSave(t.ctx, bob.viewer, "6f1c9a36-0000-4000-8000-000000000001")).rejects.toMatchObject(
      {
        code: "not-found",
      },
    );
  });

  it("refuses a save on another campus's post, as comments are refused, changing nothing (decision 0117)", async () => {
    const longhorn = await createTestMember(t, { campusId: "ut", fullName: "Ut Seller" });
    const { id } = await createTestPost(t, longhorn.viewer);
    await expect(toggleSave(t.ctx, bob.viewer, id)).rejects.toMatchObject({
      code: "other-campus",
      message: "You can only post and comment in your own campus.",
    });
    expect(await row(id)).toMatchObject({ saveCount: 0 });
    const [saves] = await t.ctx.db.select({ n: count() }).from(postLikes).where(eq(postLikes.postId, id));
    expect(saves?.n).toBe(0);
    // A save made there before the rule can still be taken back.
    await t.ctx.db
      .insert(postLikes)
      .values({ postId: id, userId: bob.id, campusId: "ut", createdAt: t.clock.now() });
    await t.ctx.db.update(posts).set({ saveCount: 1 }).where(eq(posts.id, id));
    expect(await toggleSave(t.ctx, bob.viewer, id)).toEqual({ saved: false, saveCount: 0 });
  });

  it("answers ids that are not posts with 'not found', changing nothing", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    for (const bad of [
      "",
      "not-a-uuid",
      `${id}x`,
      "'; drop table posts; --",
      "6f1c9a36-0000-4000-8000-000000000009",
    ]) {
      await expect(toggleSave(t.ctx, bob.viewer, bad)).rejects.toMatchObject({ code: "not-found" });
    }
    expect(await row(id)).toMatchObject({ saveCount: 0 });
  });

  it("lists who saved a post, most recent first, in keyset pages", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    const savers = [bob, alice, await createTestMember(t, { fullName: "Cara Reader" })];
    for (const saver of savers) {
      t.clock.advance(1000);
      await toggleSave(t.ctx, saver.viewer, id);
    }
    const first = await listPostSavers(t.ctx, null, { postId: id, campusId: "ou", limit: 2 });
    expect(first?.items.map((saver) => saver.id)).toEqual([savers[2]?.id, savers[1]?.id]);
    expect(first?.items[0]).toEqual({
      id: savers[2]?.id,
      username: expect.any(String),
      firstName: "Cara",
      lastName: "R.",
      img: expect.any(String),
      verified: true,
      // Decision 0680: school-verified, no class year given.
      badge: { kind: "student", label: "Verified student", classOf: null },
    });
    const second = await listPostSavers(t.ctx, null, {
      postId: id,
      campusId: "ou",
      limit: 2,
      cursor: first?.nextCursor,
    });
    expect(second).toEqual({ items: [expect.objectContaining({ id: bob.id })], nextCursor: null });
    expect(await listPostSavers(t.ctx, null, { postId: id, campusId: "ut" })).toBeNull();
  });
});
