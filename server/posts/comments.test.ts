import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts, user } from "../db/schema";
import { createComment, deleteComment, getThread } from "./comments";
import { insertNewUserPost } from "./new-user-post";
import { plainTextToRichText } from "./rich-text.shared";

let t: TestContext;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  alice = await createTestMember(t, { fullName: "Alice Seller" });
  bob = await createTestMember(t, { fullName: "Bob Buyer" });
});
afterAll(() => t.close());

const MINUTE = 60_000;

function richText(...lines: string[]): string {
  return JSON.stringify(plainTextToRichText(lines.join("\n")));
}

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

describe("comments and replies (spec 2 §4)", () => {
  it("sets parent and root, counts the reply on its parent, and bumps lastModified of every ancestor", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer, { text: "Lamp" });
    const { id: other } = await createTestPost(t, alice.viewer, { text: "Unrelated" });
    t.clock.advance(MINUTE);
    const first = await createTestComment(t, bob.viewer, postId, { text: "Still available?" });
    expect(first.rootId).toBe(postId);
    t.clock.advance(MINUTE);
    const second = await createTestComment(t, alice.viewer, first.id, { text: "Yes" });
    t.clock.advance(MINUTE);
    const third = await createTestComment(t, bob.viewer, second.id, { text: "Great" });
    const replyTime = t.clock.now();

    expect(await row(third.id)).toMatchObject({
      parentId: second.id,
      rootId: postId,
      campusId: "ou",
      type: "post",
    });
    for (const ancestor of [postId, first.id, second.id]) {
      expect((await row(ancestor))?.lastModified).toEqual(replyTime);
    }
    expect((await row(other))?.lastModified.getTime()).toBeLessThan(replyTime.getTime());
    expect((await row(postId))?.commentCount).toBe(1);
    expect((await row(first.id))?.commentCount).toBe(1);
    expect((await row(second.id))?.commentCount).toBe(1);
    expect((await row(third.id))?.commentCount).toBe(0);
    // Comments are not posts of the profile: totalPosts counts top-level posts only.
    expect(await totalPostsOf(bob.id)).toBe(0);
  });

  it("applies the gates and the 500 rule to comments", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    await expect(createComment(t.ctx, null, { postId, text: richText("hi") })).rejects.toMatchObject({
      refusal: { kind: "sign-in", reason: "comment" },
    });
    const noSchool = await createTestMember(t, { schoolVerified: false });
    await expect(
      createComment(t.ctx, noSchool.viewer, { postId, text: richText("hi") }),
    ).rejects.toMatchObject({
      refusal: { kind: "verify-school" },
    });
    await expect(
      createComment(t.ctx, bob.viewer, { postId, text: richText("y".repeat(250), "z".repeat(249)) }),
    ).rejects.toMatchObject({ code: "too-many-characters", message: "Error: Too many characters!" });
    await expect(createComment(t.ctx, bob.viewer, { postId, text: richText("") })).rejects.toMatchObject({
      code: "empty",
    });
    expect((await row(postId))?.commentCount).toBe(0);
  });

  it("stores a comment's photos under its own id", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    const reply = await createTestComment(t, bob.viewer, postId, {
      text: "Here's mine",
      files: [await pngFile()],
    });
    expect(storedKeysOf(reply.id)).toHaveLength(2);
    expect((await row(reply.id))?.imgCount).toBe(1);
  });

  it("refuses replies to missing posts, to another campus and to 'new user' banners", async () => {
    await expect(
      createComment(t.ctx, bob.viewer, {
        postId: "6f1c9a36-0000-4000-8000-000000000000",
        text: richText("hi"),
      }),
    ).rejects.toMatchObject({ code: "not-found", message: "Sorry, that post has been deleted." });
    await expect(
      createComment(t.ctx, bob.viewer, { postId: "not-a-uuid", text: richText("hi") }),
    ).rejects.toMatchObject({
      code: "not-found",
    });
    const utMember = await createTestMember(t, { campusId: "ut" });
    const { id: utPost } = await createTestPost(t, utMember.viewer);
    await expect(
      createComment(t.ctx, bob.viewer, { postId: utPost, text: richText("hi") }),
    ).rejects.toMatchObject({
      code: "other-campus",
    });
    const banner = await insertNewUserPost(t.ctx.db, {
      authorId: alice.id,
      campusId: "ou",
      at: t.clock.now(),
    });
    await expect(
      createComment(t.ctx, bob.viewer, { postId: banner.id, text: richText("hi") }),
    ).rejects.toMatchObject({
      code: "invalid-input",
    });
  });
});

describe("deleting a comment (spec 2 §4, §6)", () => {
  it("deletes a comment and its replies only, lowering its parent's count, not totalPosts", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    const comment = await createTestComment(t, bob.viewer, postId);
    const reply = await createTestComment(t, alice.viewer, comment.id);
    const sibling = await createTestComment(t, alice.viewer, postId);
    const totalBefore = await totalPostsOf(bob.id);
    const deleted = await deleteComment(t.ctx, bob.viewer, comment.id);
    expect(deleted).toEqual({ id: comment.id, kind: "comment", rootId: postId, removed: 2 });
    expect(await row(reply.id)).toBeUndefined();
    expect(await row(sibling.id)).toBeDefined();
    expect((await row(postId))?.commentCount).toBe(1);
    expect(await totalPostsOf(bob.id)).toBe(totalBefore);
  });
});

describe("reading a thread (spec 2 §2 Post detail)", () => {
  it("returns replies recursively, oldest first, with authors and media", async () => {
    const { id: postId } = await createTestPost(t, alice.viewer);
    t.clock.advance(1000);
    const a = await createTestComment(t, bob.viewer, postId, { text: "first" });
    t.clock.advance(1000);
    const b = await createTestComment(t, alice.viewer, postId, { text: "second", files: [await pngFile()] });
    t.clock.advance(1000);
    const a1 = await createTestComment(t, alice.viewer, a.id, { text: "reply to first" });
    t.clock.advance(1000);
    const a1x = await createTestComment(t, bob.viewer, a1.id, { text: "deeper" });
    t.clock.advance(1000);
    const a2 = await createTestComment(t, bob.viewer, a.id, { text: "another reply to first" });

    const thread = await getThread(t.ctx, bob.viewer, { postId, campusId: "ou" });
    const shape = (list: typeof thread): unknown =>
      list?.map((comment) => ({ id: comment.id, replies: shape(comment.replies) }));
    expect(shape(thread)).toEqual([
      {
        id: a.id,
        replies: [
          { id: a1.id, replies: [{ id: a1x.id, replies: [] }] },
          { id: a2.id, replies: [] },
        ],
      },
      { id: b.id, replies: [] },
    ]);
    expect(thread?.[0]).toMatchObject({
      author: { id: bob.id },
      ownedByViewer: true,
      parentId: postId,
      rootId: postId,
    });
    expect(thread?.[1]?.media).toHaveLength(1);
    // The replies below a comment.
    const below = await getThread(t.ctx, bob.viewer, { postId: a.id, campusId: "ou" });
    expect(below?.map((comment) => comment.id)).toEqual([a1.id, a2.id]);
    expect(await getThread(t.ctx, bob.viewer, { postId, campusId: "ut" })).toBeNull();
  });
});
