import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, mp4File, pngFile, textFileNamedPng } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Viewer } from "../accounts/viewer";
import { postMedia, posts } from "../db/schema";
import { createPost } from "./posts";
import { plainTextToRichText } from "./rich-text.shared";

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

function richText(...lines: string[]): string {
  return JSON.stringify(plainTextToRichText(lines.join("\n")));
}

async function postCountOf(authorId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ n: count() }).from(posts).where(eq(posts.authorId, authorId));
  return row?.n ?? 0;
}

async function row(postId: string) {
  const [found] = await t.ctx.db.select().from(posts).where(eq(posts.id, postId));
  return found;
}

function storedKeysOf(postId: string): string[] {
  return [...t.storage.objects.keys()].filter((key) => key.startsWith(`images/posts/${postId}/`));
}

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
