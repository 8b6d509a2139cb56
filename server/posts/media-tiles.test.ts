import { describe, expect, it } from "vitest";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { toRichTextView } from "~/server/posts/rich-text-schema.shared";
import type { PostMediaView, PostSummary } from "~/server/posts/views";
import { postSummary } from "~/tests/support/post-summary";
import { toMediaTile, toMediaTiles } from "./media-tiles";

/** The listing reserved: a tile shows any post, whatever its status. */
function summary(overrides: Partial<PostSummary> = {}): PostSummary {
  return postSummary({ listing: { ...postSummary().listing, status: "reserved" }, ...overrides });
}

function photo(width: number | null, height: number | null): PostMediaView {
  return {
    id: "m1",
    kind: "image",
    order: 1,
    url: "/media-files/images/posts/p/1-abc-1080.webp",
    thumbUrl: "/media-files/images/posts/p/1-abc-480.webp",
    name: "1-abc-1080.webp",
    width,
    height,
  };
}

describe("media tiles (decision 0100)", () => {
  it("shows a photo's 480 px WebP with that file's own size, from the large one's ratio", () => {
    const tile = toMediaTile(summary({ firstMedia: photo(1080, 810), imgCount: 1 }));
    expect(tile?.media).toEqual({
      kind: "image",
      src: "/media-files/images/posts/p/1-abc-480.webp",
      width: 480,
      height: 360,
    });
    expect(tile?.label).toBe("Desk lamp, barely used");
  });

  it("never enlarges: a photo narrower than 480 px keeps its size", () => {
    const tile = toMediaTile(summary({ firstMedia: photo(64, 48), imgCount: 1 }));
    expect(tile?.media).toMatchObject({ width: 64, height: 48 });
  });

  it("shows a video itself (no poster is stored), without a size", () => {
    const video: PostMediaView = { ...photo(null, null), kind: "video", url: "/v.mp4", thumbUrl: null };
    const tile = toMediaTile(summary({ firstMedia: video, imgCount: 2 }));
    expect(tile?.media).toEqual({ kind: "video", src: "/v.mp4", width: null, height: null });
    expect(tile?.imgCount).toBe(2);
  });

  it("cuts the label at 80 characters and drops posts without media", () => {
    const long = toRichTextView(plainTextToRichText("a".repeat(120)));
    const [tile, ...rest] = toMediaTiles([
      summary({ text: long, firstMedia: photo(1080, 1080), imgCount: 1 }),
      summary({ id: "22222222-2222-4222-8222-222222222222" }),
    ]);
    expect(rest).toEqual([]);
    expect(tile?.label).toHaveLength(80);
    expect(tile?.label.endsWith("…")).toBe(true);
  });
});
