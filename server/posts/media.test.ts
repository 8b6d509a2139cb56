import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, pngFile, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { box, ftyp, LOCATION, testAvi, testMovie } from "../../tests/support/video-files";
import { postMedia } from "../db/schema";
import { createPost } from "./posts";
import { plainTextToRichText } from "./rich-text.shared";

// Decision 0121: a posted video is stored without the location and other
// metadata its camera wrote, or refused with a message saying why.

let t: TestContext;
let member: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  member = await createTestMember(t);
});
afterAll(() => t.close());

const text = JSON.stringify(plainTextToRichText("Campus tour"));

async function storedVideoOf(postId: string) {
  const [row] = await t.ctx.db.select().from(postMedia).where(eq(postMedia.postId, postId));
  return { row, stored: t.storage.objects.get(row?.imgPath ?? "") };
}

describe("posting videos", () => {
  it("stores a phone's MP4 and MOV without where they were filmed; the frames are unchanged", async () => {
    for (const [qt, name, mime] of [
      [false, "tour.mp4", "video/mp4"],
      [true, "tour.mov", "video/quicktime"],
    ] as const) {
      const movie = testMovie({ qt });
      const file = new File([new Uint8Array(movie.bytes)], name, { type: mime });
      const { id } = await createPost(t.ctx, member.viewer, { campusId: "ou", text, files: [file] });
      const { row, stored } = await storedVideoOf(id);
      expect(row?.kind).toBe("video");
      expect(stored?.contentType).toBe(mime);
      const bytes = Buffer.from(stored?.bytes ?? []);
      expect(bytes.byteLength).toBe(movie.bytes.byteLength);
      expect(bytes.includes(LOCATION, 0, "latin1")).toBe(false);
      expect(bytes.includes("+40.6892", 0, "latin1")).toBe(false);
      expect(bytes.includes("com.apple.quicktime.location", 0, "latin1")).toBe(false);
      for (const sample of movie.videoSamples) {
        expect(
          bytes.subarray(sample.offset, sample.offset + sample.bytes.byteLength).equals(sample.bytes),
        ).toBe(true);
      }
    }
  });

  it("stores an AVI without its camera's metadata", async () => {
    const avi = testAvi();
    const file = new File([new Uint8Array(avi.bytes)], "clip.avi", { type: "video/x-msvideo" });
    const { id } = await createPost(t.ctx, member.viewer, { campusId: "ou", text, files: [file] });
    const bytes = Buffer.from((await storedVideoOf(id)).stored?.bytes ?? []);
    expect(bytes.includes("40.6892N", 0, "latin1")).toBe(false);
    expect(bytes.includes("Elm Street", 0, "latin1")).toBe(false);
    expect(bytes.byteLength).toBe(avi.bytes.byteLength);
  });

  it("refuses a video it cannot read or cannot clean, saying so, and keeps nothing of the post", async () => {
    const before = t.storage.objects.size;
    const broken = new File(
      [new Uint8Array(Buffer.concat([ftyp("isom"), box("mdat", new Uint8Array(64))]))],
      "a.mp4",
    );
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text, files: [await pngFile(), broken] }),
    ).rejects.toMatchObject({
      code: "unreadable-file",
      message: "This video could not be read. Try another one.",
      alertType: "danger",
    });
    const compressed = new File(
      [
        new Uint8Array(
          Buffer.concat([ftyp("qt  "), box("moov", box("cmov", new Uint8Array(40))), box("mdat")]),
        ),
      ],
      "b.mov",
    );
    await expect(
      createPost(t.ctx, member.viewer, { campusId: "ou", text, files: [compressed] }),
    ).rejects.toMatchObject({
      code: "unreadable-file",
      message:
        "This video holds details we can't remove, such as where it was filmed, so it wasn't posted. Try another video.",
    });
    expect(t.storage.objects.size).toBe(before);
  });
});
