import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  mp4File,
  pngFile,
  type TestMember,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Viewer } from "../accounts/viewer";
import { campuses, posts, user } from "../db/schema";
import { createComment, getThread } from "./comments";
import { createPost, getPost } from "./posts";
import { plainTextToRichText, type RichTextState } from "./rich-text.shared";
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

function richText(...lines: string[]): string {
  return JSON.stringify(plainTextToRichText(lines.join("\n")));
}

async function postCountOf(authorId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ n: count() }).from(posts).where(eq(posts.authorId, authorId));
  return row?.n ?? 0;
}

async function totalPostsOf(userId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ totalPosts: user.totalPosts }).from(user).where(eq(user.id, userId));
  return row?.totalPosts ?? -1;
}

async function row(postId: string) {
  const [found] = await t.ctx.db.select().from(posts).where(eq(posts.id, postId));
  return found;
}

describe("createPost gates (spec 2 §5, spec 1 §6)", () => {
  const input = { campusId: "ou", text: richText("Desk for sale") };

  it("sends visitors to the sign-in modal with reason 'post'", async () => {
    await expect(createPost(t.ctx, null, input)).rejects.toMatchObject({
      name: "ParticipationRefused",
      refusal: { kind: "sign-in", reason: "post" },
    });
  });

  it("refuses unverified e-mail, school not verified and profile not set up, in that order, writing nothing", async () => {
    const unverified = await createTestMember(t, { verified: false });
    const noSchool = await createTestMember(t, { schoolVerified: false, profileSetUp: false });
    const noProfile = await createTestMember(t, { profileSetUp: false });
    const cases: [Viewer, string][] = [
      [unverified.viewer, "verify-email"],
      [noSchool.viewer, "verify-school"],
      [noProfile.viewer, "profile-incomplete"],
    ];
    for (const [viewer, kind] of cases) {
      await expect(createPost(t.ctx, viewer, input)).rejects.toMatchObject({ refusal: { kind } });
      expect(await postCountOf(viewer.id)).toBe(0);
      expect(await totalPostsOf(viewer.id)).toBe(0);
    }
    await expect(createPost(t.ctx, noProfile.viewer, input)).rejects.toThrow(
      "Please pick a profile picture and add a bio before posting",
    );
  });

  it("treats a banned account as signed out", async () => {
    const banned = await createTestMember(t);
    await expect(createPost(t.ctx, { ...banned.viewer, banned: true }, input)).rejects.toMatchObject({
      refusal: { kind: "sign-in" },
    });
  });

  it("posts only into the member's own campus", async () => {
    await expect(createPost(t.ctx, alice.viewer, { ...input, campusId: "ut" })).rejects.toMatchObject({
      code: "other-campus",
    });
    expect(await postCountOf(alice.id)).toBe(0);
  });
});

describe("createPost rules (spec 2 §4, §5)", () => {
  it("stores the Lexical JSON, its plain text and category, and counts the post in totalPosts", async () => {
    const member = await createTestMember(t);
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: richText("Mini fridge", "Works great"),
      category: "household",
    });
    const stored = await row(id);
    expect(stored).toMatchObject({
      campusId: "ou",
      type: "post",
      authorId: member.id,
      textPlain: "Mini fridge\nWorks great",
      category: "household",
      parentId: null,
      rootId: null,
      imgCount: 0,
      saveCount: 0,
      commentCount: 0,
    });
    expect(stored?.text).toEqual(plainTextToRichText("Mini fridge\nWorks great"));
    expect(stored?.createdAt).toEqual(t.clock.now());
    expect(await totalPostsOf(member.id)).toBe(1);
  });

  it("refuses 501 characters with 'Error: Too many characters!', and line breaks count 2", async () => {
    const member = await createTestMember(t);
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("x".repeat(501)) }),
    ).rejects.toMatchObject({
      code: "too-many-characters",
      message: "Error: Too many characters!",
      alertType: "danger",
    });
    // 498 characters over two blocks: 498 + 2 = 500, accepted; one more character is 501.
    await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: richText("a".repeat(300), "b".repeat(198)),
    });
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("a".repeat(300), "b".repeat(199)) }),
    ).rejects.toMatchObject({ code: "too-many-characters" });
    expect(await postCountOf(member.id)).toBe(1);
    expect(await totalPostsOf(member.id)).toBe(1);
  });

  it("stores the text normalised: the probe's 496 formatted one-character runs become one (decision 0115)", async () => {
    const member = await createTestMember(t);
    const runs = Array.from({ length: 496 }, () => ({ type: "text", text: "z", format: 255 }));
    const empties = Array.from({ length: 400 }, () => ({ type: "text", text: "" }));
    const text = JSON.stringify({
      root: { type: "root", children: [{ type: "paragraph", children: [...runs, ...empties] }] },
    });
    const { id } = await createPost(t.ctx, member.viewer, { campusId: "ou", text });
    const stored = (await row(id))?.text as RichTextState;
    expect(stored.root.children).toHaveLength(1);
    expect(stored.root.children[0]?.children).toEqual([
      { type: "text", version: 1, text: "z".repeat(496), format: 255, detail: 0, mode: "normal", style: "" },
    ]);
    const comment = await createComment(t.ctx, member.viewer, { postId: id, text });
    const storedComment = (await row(comment.id))?.text as RichTextState | undefined;
    expect(storedComment?.root.children[0]?.children).toHaveLength(1);
  });

  it("refuses a text of more nodes than the cap with 'Error: Too many characters!', writing nothing", async () => {
    const member = await createTestMember(t);
    const runs = Array.from({ length: 400 }, (_, index) => ({ type: "text", text: "a", format: index % 2 }));
    const text = JSON.stringify({
      root: { type: "root", children: [{ type: "paragraph", children: runs }] },
    });
    for (const attempt of [
      () => createPost(t.ctx, member.viewer, { campusId: "ou", text }),
      async () =>
        createComment(t.ctx, member.viewer, { postId: (await createTestPost(t, alice.viewer)).id, text }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: "too-many-characters",
        message: "Error: Too many characters!",
      });
    }
    expect(await postCountOf(member.id)).toBe(0);
  });

  it("needs text in the first block or a file", async () => {
    const member = await createTestMember(t);
    for (const text of [null, "", richText(""), richText("", "text only in the second block")]) {
      await expect(createPost(t.ctx, member.viewer, { campusId: "ou", text })).rejects.toMatchObject({
        code: "empty",
      });
    }
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: null,
      files: [await pngFile()],
    });
    expect(await row(id)).toMatchObject({ text: null, textPlain: "", imgCount: 1 });
  });

  it("refuses a malformed editor state and an unknown category; 'all' means none", async () => {
    const member = await createTestMember(t);
    await expect(
      createPost(t.ctx, member.viewer, {
        campusId: "ou",
        text: '{"root":{"type":"root","children":[{"type":"image"}]}}',
      }),
    ).rejects.toMatchObject({ code: "invalid-input" });
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("x"), category: "weapons" }),
    ).rejects.toMatchObject({ code: "invalid-input", message: "Choose a category from the list." });
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: richText("x"),
      category: "all",
    });
    expect((await row(id))?.category).toBeNull();
  });
});

describe("reading a post and its thread (spec 2 §2 Post detail)", () => {
  it("gives author, media, counts, ownership and the saved flag; null when missing or on another campus", async () => {
    const { id } = await createPost(t.ctx, alice.viewer, {
      campusId: "ou",
      text: richText("<script>alert(1)</script> Desk"),
      category: "furniture",
      files: [await pngFile(), mp4File()],
    });
    const post = await getPost(t.ctx, bob.viewer, { postId: id, campusId: "ou" });
    expect(post).toMatchObject({
      id,
      type: "post",
      category: "furniture",
      plainText: "<script>alert(1)</script> Desk",
      imgCount: 2,
      saveCount: 0,
      commentCount: 0,
      parentId: null,
      savedByViewer: false,
      ownedByViewer: false,
      author: { id: alice.id, firstName: "Alice", lastName: "S.", verified: true },
    });
    expect(post?.text?.children[0]?.children).toEqual([
      { type: "text", text: "<script>alert(1)</script> Desk", format: [] },
    ]);
    expect(post?.media.map((media) => [media.order, media.kind])).toEqual([
      [1, "image"],
      [2, "video"],
    ]);
    expect(post?.media[0]?.url).toMatch(/^\/media-files\/images\/posts\/.+-1080\.webp$/);
    expect(post?.media[0]?.thumbUrl).toMatch(/-480\.webp$/);
    expect((await getPost(t.ctx, alice.viewer, { postId: id, campusId: "ou" }))?.ownedByViewer).toBe(true);
    expect(await getPost(t.ctx, alice.viewer, { postId: id, campusId: "ut" })).toBeNull();
    expect(await getPost(t.ctx, null, { postId: "nope", campusId: "ou" })).toBeNull();
  });

  it("keeps a private campus's posts from visitors", async () => {
    const member = await createTestMember(t, { campusId: "mit" });
    const { id } = await createTestPost(t, member.viewer);
    await t.ctx.db.update(campuses).set({ privacy: "private" }).where(eq(campuses.id, "mit"));
    try {
      await expect(getPost(t.ctx, null, { postId: id, campusId: "mit" })).rejects.toMatchObject({
        code: "private-campus",
        message: "This community is private",
      });
      await expect(getThread(t.ctx, null, { postId: id, campusId: "mit" })).rejects.toMatchObject({
        code: "private-campus",
      });
      expect(await getPost(t.ctx, member.viewer, { postId: id, campusId: "mit" })).not.toBeNull();
    } finally {
      await t.ctx.db.update(campuses).set({ privacy: "public" }).where(eq(campuses.id, "mit"));
    }
  });

  it("reads the saved flag from the database: a visitor never has one", async () => {
    const { id } = await createTestPost(t, alice.viewer);
    await toggleSave(t.ctx, bob.viewer, id);
    const fresh = await viewerOf(t, bob.id);
    expect((await getPost(t.ctx, fresh, { postId: id, campusId: "ou" }))?.savedByViewer).toBe(true);
    expect((await getPost(t.ctx, null, { postId: id, campusId: "ou" }))?.savedByViewer).toBe(false);
  });
});
