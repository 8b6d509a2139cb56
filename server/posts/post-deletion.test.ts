import { Writable } from "node:stream";
import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  mp4File,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { postLikes, postMedia, posts, user } from "../db/schema";
import { deleteComment } from "./comments";
import { insertNewUserPost } from "./new-user-post";
import { deletePost, getPost } from "./posts";
import { toggleSave } from "./saves";

let t: TestContext;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  alice = await createTestMember(t, { fullName: "Alice Seller" });
  bob = await createTestMember(t, { fullName: "Bob Buyer" });
});
afterAll(() => t.close());

async function totalPostsOf(userId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ totalPosts: user.totalPosts }).from(user).where(eq(user.id, userId));
  return row?.totalPosts ?? -1;
}

async function row(postId: string) {
  const [found] = await t.ctx.db.select().from(posts).where(eq(posts.id, postId));
  return found;
}

function storedKeysOf(postId: string): string[] {
  return [...t.storage.objects.keys()].filter((key) => key.startsWith(`images/posts/${postId}/`));
}

describe("deleting (spec 2 §4, §6)", () => {
  it("removes the post, every nested comment, their gallery rows, saves and stored files; totalPosts − 1", async () => {
    const owner = await createTestMember(t);
    const { id: postId } = await createTestPost(t, owner.viewer, { files: [await pngFile(), mp4File()] });
    const c1 = await createTestComment(t, bob.viewer, postId, { files: [await pngFile()] });
    const c2 = await createTestComment(t, owner.viewer, c1.id);
    const c3 = await createTestComment(t, bob.viewer, c2.id, { files: [mp4File()] });
    const c4 = await createTestComment(t, alice.viewer, postId);
    const { id: kept } = await createTestPost(t, owner.viewer);
    await toggleSave(t.ctx, bob.viewer, postId);
    const ids = [postId, c1.id, c2.id, c3.id, c4.id];
    expect(ids.flatMap(storedKeysOf)).toHaveLength(3 + 2 + 1);
    expect(await totalPostsOf(owner.id)).toBe(2);

    const deleted = await deletePost(t.ctx, owner.viewer, postId);
    expect(deleted).toEqual({ id: postId, kind: "post", rootId: null, removed: 5 });
    expect(await t.ctx.db.select().from(posts).where(inArray(posts.id, ids))).toEqual([]);
    expect(await t.ctx.db.select().from(postMedia).where(inArray(postMedia.postId, ids))).toEqual([]);
    expect(await t.ctx.db.select().from(postLikes).where(inArray(postLikes.postId, ids))).toEqual([]);
    expect(ids.flatMap(storedKeysOf)).toEqual([]);
    expect(await totalPostsOf(owner.id)).toBe(1);
    expect(await row(kept)).toBeDefined();
    expect(await getPost(t.ctx, owner.viewer, { postId, campusId: "ou" })).toBeNull();
  });

  it("lets nobody delete another's post or comment, whatever id they send", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    const bobsComment = await createTestComment(t, bob.viewer, postId);
    const alicesReply = await createTestComment(t, alice.viewer, bobsComment.id);
    // Bob may not delete Alice's post, nor Alice's reply under his own comment.
    await expect(deletePost(t.ctx, bob.viewer, postId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(deleteComment(t.ctx, bob.viewer, alicesReply.id)).rejects.toMatchObject({
      code: "forbidden",
    });
    // The post's owner may not delete Bob's comment on her post.
    await expect(deleteComment(t.ctx, alice.viewer, bobsComment.id)).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(deletePost(t.ctx, null, postId)).rejects.toMatchObject({ refusal: { kind: "sign-in" } });
    await expect(deletePost(t.ctx, bob.viewer, "'; drop table posts; --")).rejects.toMatchObject({
      code: "not-found",
    });
    for (const id of [postId, bobsComment.id, alicesReply.id]) expect(await row(id)).toBeDefined();
    expect((await row(postId))?.commentCount).toBe(1);
  });

  it("deletes each kind by its own name: a post's id is not a comment's, nor a comment's a post's (decision 0130)", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    const comment = await createTestComment(t, alice.viewer, postId);
    await expect(deleteComment(t.ctx, alice.viewer, postId)).rejects.toMatchObject({ code: "not-found" });
    await expect(deletePost(t.ctx, alice.viewer, comment.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(deleteComment(t.ctx, null, comment.id)).rejects.toMatchObject({
      refusal: { kind: "sign-in" },
    });
    await expect(deleteComment(t.ctx, alice.viewer, "'; drop table posts; --")).rejects.toMatchObject({
      code: "not-found",
    });
    expect(await row(postId)).toBeDefined();
    expect(await row(comment.id)).toBeDefined();
    expect((await row(postId))?.commentCount).toBe(1);
  });

  it("does not count a 'new user' post in totalPosts when it is deleted", async () => {
    const member = await createTestMember(t);
    await createTestPost(t, member.viewer);
    const banner = await insertNewUserPost(t.ctx.db, {
      authorId: member.id,
      campusId: "ou",
      at: t.clock.now(),
    });
    await deletePost(t.ctx, member.viewer, banner.id);
    expect(await totalPostsOf(member.id)).toBe(1);
  });

  it("keeps the delete when stored files cannot be removed, logging 'Couldn't delete post images'", async () => {
    const member = await createTestMember(t);
    const { id } = await createTestPost(t, member.viewer, { files: [await pngFile()] });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { log } = t.ctx;
    const remove = t.storage.delete;
    t.ctx.log = pino({ level: "info" }, sink);
    t.storage.delete = async () => {
      throw new Error("bucket unavailable");
    };
    try {
      await deletePost(t.ctx, member.viewer, id);
    } finally {
      t.ctx.log = log;
      t.storage.delete = remove;
    }
    expect(await row(id)).toBeUndefined();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; keys: string[]; level: number });
    expect(logged).toEqual([expect.objectContaining({ msg: "Couldn't delete post images", level: 50 })]);
    expect(logged[0]?.keys).toHaveLength(2);
  });
});
