import { Writable } from "node:stream";
import { count, eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  mp4File,
  pngFile,
  type TestMember,
  textFileNamedPng,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Viewer } from "../accounts/viewer";
import { campuses, postLikes, postMedia, posts, user } from "../db/schema";
import { createComment, deleteComment, getThread } from "./comments";
import { insertNewUserPost } from "./new-user-post";
import { createPost, deletePost, getPost } from "./posts";
import { plainTextToRichText, type RichTextState } from "./rich-text";
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

function storedKeysOf(postId: string): string[] {
  return [...t.storage.objects.keys()].filter((key) => key.startsWith(`images/posts/${postId}/`));
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

describe("post files (spec 2 §5, decision 0082)", () => {
  it("re-encodes photos to WebP in two widths, records dimensions, keeps videos as sent, in order from 1", async () => {
    const member = await createTestMember(t);
    const png = await pngFile("IMG_0001.png", { width: 1600, height: 1200 });
    const video = mp4File("clip.mp4");
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: richText("Bike"),
      files: [png, video],
    });
    expect((await row(id))?.imgCount).toBe(2);
    const gallery = await t.ctx.db
      .select()
      .from(postMedia)
      .where(eq(postMedia.postId, id))
      .orderBy(postMedia.imgOrder);
    expect(gallery).toHaveLength(2);
    const [photo, clip] = gallery;
    expect(photo).toMatchObject({
      kind: "image",
      imgOrder: 1,
      imgWidth: 1080,
      imgHeight: 810,
      campusId: "ou",
    });
    expect(photo?.imgPath).toMatch(new RegExp(`^images/posts/${id}/1-[0-9a-f]{20}-1080\\.webp$`));
    expect(photo?.thumbPath).toMatch(new RegExp(`^images/posts/${id}/1-[0-9a-f]{20}-480\\.webp$`));
    expect(clip).toMatchObject({ kind: "video", imgOrder: 2, imgWidth: null, thumbPath: null });
    expect(clip?.imgPath).toMatch(new RegExp(`^images/posts/${id}/2-[0-9a-f]{20}\\.mp4$`));

    const large = t.storage.objects.get(photo?.imgPath ?? "");
    expect(large?.contentType).toBe("image/webp");
    expect(
      Buffer.from(large?.bytes ?? [])
        .subarray(8, 12)
        .toString("ascii"),
    ).toBe("WEBP");
    const storedVideo = t.storage.objects.get(clip?.imgPath ?? "");
    expect(storedVideo?.contentType).toBe("video/mp4");
    expect(Buffer.from(storedVideo?.bytes ?? [])).toEqual(Buffer.from(await video.arrayBuffer()));
    expect(storedKeysOf(id)).toHaveLength(3);
  });

  it("never enlarges a small photo", async () => {
    const member = await createTestMember(t);
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      files: [await pngFile("a.png")],
    });
    const [photo] = await t.ctx.db.select().from(postMedia).where(eq(postMedia.postId, id));
    expect(photo).toMatchObject({ imgWidth: 64, imgHeight: 48 });
  });

  it("refuses 11 files with 'Please choose up to 10 photos.' (okay), storing nothing", async () => {
    const member = await createTestMember(t);
    const png = await pngFile();
    const before = t.storage.objects.size;
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("x"), files: Array(11).fill(png) }),
    ).rejects.toMatchObject({
      code: "too-many-files",
      message: "Please choose up to 10 photos.",
      alertType: "okay",
    });
    expect(t.storage.objects.size).toBe(before);
    expect(await postCountOf(member.id)).toBe(0);
    // Ten are fine.
    const { id } = await createPost(t.ctx, member.viewer, { campusId: "ou", files: Array(10).fill(png) });
    expect((await row(id))?.imgCount).toBe(10);
  });

  it("decides by content: a text file named .png is refused with 'Only photos & videos are allowed!'", async () => {
    const member = await createTestMember(t);
    const before = t.storage.objects.size;
    await expect(
      createPost(t.ctx, member.viewer, {
        campusId: "ou",
        text: richText("x"),
        files: [await pngFile(), textFileNamedPng()],
      }),
    ).rejects.toMatchObject({
      code: "unsupported-file",
      message: "Only photos & videos are allowed!",
      alertType: "danger",
    });
    for (const odd of [new File([], "empty.jpg"), new File(["%PDF-1.7\n"], "doc.mp4")]) {
      await expect(
        createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("x"), files: [odd] }),
      ).rejects.toMatchObject({ code: "unsupported-file" });
    }
    expect(t.storage.objects.size).toBe(before);
    expect(await postCountOf(member.id)).toBe(0);
  });

  it("accepts a real photo whatever its name", async () => {
    const member = await createTestMember(t);
    const { id } = await createPost(t.ctx, member.viewer, {
      campusId: "ou",
      files: [await pngFile("scan.txt")],
    });
    expect((await row(id))?.imgCount).toBe(1);
  });

  it("caps a photo at 15 MB before reading it whole", async () => {
    const member = await createTestMember(t);
    const head = new Uint8Array(await (await pngFile()).arrayBuffer());
    const big = new File([head, new Uint8Array(15 * 1024 * 1024)], "huge.png");
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text: richText("x"), files: [big] }),
    ).rejects.toMatchObject({
      code: "file-too-large",
      message: "Photos can be up to 15 MB and videos up to 100 MB.",
    });
  });

  it("removes the files already written when a later file fails, and writes no rows", async () => {
    const member = await createTestMember(t);
    const head = new Uint8Array(await (await pngFile()).arrayBuffer()).subarray(0, 33);
    const corrupt = new File([head, new Uint8Array(500).fill(7)], "broken.png");
    const before = new Set(t.storage.objects.keys());
    await expect(
      createPost(t.ctx, member.viewer, {
        campusId: "ou",
        text: richText("x"),
        files: [await pngFile(), corrupt],
      }),
    ).rejects.toMatchObject({ code: "unreadable-file" });
    expect([...t.storage.objects.keys()].filter((key) => !before.has(key))).toEqual([]);
    expect(await postCountOf(member.id)).toBe(0);
  });

  it("removes the written files when the transaction fails (nothing half-done)", async () => {
    const member = await createTestMember(t);
    // A viewer whose row has gone: the insert fails on the author's foreign key.
    const ghost: Viewer = { ...member.viewer, id: "no-such-user" };
    const before = new Set(t.storage.objects.keys());
    await expect(
      createPost(t.ctx, ghost, { campusId: "ou", text: richText("x"), files: [await pngFile(), mp4File()] }),
    ).rejects.toThrow();
    expect([...t.storage.objects.keys()].filter((key) => !before.has(key))).toEqual([]);
    expect(await postCountOf("no-such-user")).toBe(0);
  });
});

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
