import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  deleteStoredKeys,
  type MediaError,
  PROFILE_PHOTO_VARIANTS,
  processImage,
  storeImage,
} from "./images";
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, PROFILE_PHOTO_TYPES } from "./limits.shared";
import { sniffMediaType } from "./media-type";
import { createMemoryStorage } from "./storage";

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 40 } } });
}

/** A phone photo as it arrives: EXIF with the camera, the owner's name, a GPS position, and a rotation flag. */
async function phoneJpeg(width = 600, height = 400): Promise<Buffer> {
  return solid(width, height)
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneCo", Artist: "Jamie Rivera, 12 Elm St" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "35/1 12/1 30/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "97/1 26/1 40/1",
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

async function refusal(promise: Promise<unknown>): Promise<MediaError> {
  try {
    await promise;
  } catch (error) {
    return error as MediaError;
  }
  throw new Error("expected a refusal");
}

const profileOptions = { allowed: PROFILE_PHOTO_TYPES, variants: PROFILE_PHOTO_VARIANTS };

describe("sniffMediaType", () => {
  it("names images and videos by their bytes", async () => {
    expect(await sniffMediaType(await solid(4, 4).png().toBuffer())).toBe("png");
    expect(await sniffMediaType(await solid(4, 4).jpeg().toBuffer())).toBe("jpeg");
    expect(await sniffMediaType(await solid(4, 4).gif().toBuffer())).toBe("gif");
    expect(await sniffMediaType(await solid(4, 4).webp().toBuffer())).toBe("webp");
    // ISO media 'ftyp' boxes: an MP4 and a QuickTime movie.
    const box = (brand: string) =>
      Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`), Buffer.alloc(16)]);
    expect(await sniffMediaType(box("isom"))).toBe("mp4");
    expect(await sniffMediaType(box("qt  "))).toBe("mov");
    const avi = Buffer.concat([
      Buffer.from("RIFF"),
      Buffer.alloc(4),
      Buffer.from("AVI LIST"),
      Buffer.alloc(20),
    ]);
    expect(await sniffMediaType(avi)).toBe("avi");
  });

  it("ignores the name: text is not an image whatever it is called", async () => {
    expect(await sniffMediaType(Buffer.from("just some text, saved as photo.png\n"))).toBeNull();
    expect(await sniffMediaType(Buffer.from("%PDF-1.7\n"))).toBeNull();
  });
});

describe("processImage", () => {
  it("writes WebP squares of 160 and 480 px and records their sizes", async () => {
    const image = await processImage(await solid(1200, 900).png().toBuffer(), profileOptions);
    expect(image.sourceType).toBe("png");
    expect(
      image.variants.map(({ name, width, height, contentType }) => ({ name, width, height, contentType })),
    ).toEqual([
      { name: "160", width: 160, height: 160, contentType: "image/webp" },
      { name: "480", width: 480, height: 480, contentType: "image/webp" },
    ]);
    for (const variant of image.variants) {
      const meta = await sharp(variant.bytes).metadata();
      expect(meta.format).toBe("webp");
      expect([meta.width, meta.height]).toEqual([variant.width, variant.height]);
    }
  });

  it("never enlarges a small photo, and keeps it square", async () => {
    const image = await processImage(await solid(120, 90).png().toBuffer(), profileOptions);
    expect(image.variants.map((variant) => [variant.width, variant.height])).toEqual([
      [90, 90],
      [90, 90],
    ]);
  });

  it("strips EXIF (GPS position included) and turns the photo upright", async () => {
    const jpeg = await phoneJpeg(600, 400);
    const before = await sharp(jpeg).metadata();
    expect(before.exif?.toString("latin1")).toContain("12 Elm St");
    expect(before.orientation).toBe(6);

    const image = await processImage(jpeg, {
      allowed: PROFILE_PHOTO_TYPES,
      variants: [{ name: "w300", width: 300 }],
    });
    const variant = image.variants[0];
    if (!variant) throw new Error("no variant");
    const after = await sharp(variant.bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // 600 × 400 stored sideways (orientation 6) is a 400 × 600 portrait: 300 × 450.
    expect([variant.width, variant.height]).toEqual([300, 450]);
    expect(variant.bytes.includes(Buffer.from("12 Elm St"))).toBe(false);
  });

  it("keeps a GIF animated", async () => {
    const frame = (r: number) =>
      sharp({ create: { width: 60, height: 40, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame(255), await frame(0)], { join: { animated: true } })
      .gif()
      .toBuffer();
    const image = await processImage(gif, profileOptions);
    expect(image.sourceType).toBe("gif");
    const large = image.variants[1];
    if (!large) throw new Error("no variant");
    const meta = await sharp(large.bytes).metadata();
    expect(meta.pages).toBe(2);
    expect([large.width, large.height]).toEqual([40, 40]);
  });

  it("refuses what the caller does not allow, by content", async () => {
    const text = Buffer.from("hello, I am a text file named photo.png");
    expect((await refusal(processImage(text, profileOptions))).code).toBe("unsupported-type");
    const webp = await solid(20, 20).webp().toBuffer();
    expect((await refusal(processImage(webp, profileOptions))).code).toBe("unsupported-type");
    expect((await refusal(processImage(new Uint8Array(0), profileOptions))).code).toBe("unsupported-type");
    // Posts (decision 0050) allow WebP: the list is the caller's.
    const post = await processImage(webp, {
      allowed: ["jpeg", "png", "gif", "webp"],
      variants: [{ name: "a", width: 10 }],
    });
    expect(post.sourceType).toBe("webp");
  });

  it("refuses files over the size cap", async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(await solid(4, 4).png().toBuffer());
    expect((await refusal(processImage(big, profileOptions))).code).toBe("too-large");
    const small = await solid(40, 40).png().toBuffer();
    expect(
      (await refusal(processImage(small, { ...profileOptions, maxBytes: small.byteLength - 1 }))).code,
    ).toBe("too-large");
  });

  it("refuses an image that decodes to more pixels than the cap, before decoding it", async () => {
    // A small PNG whose header claims 10000 × 10000 pixels (100 megapixels): a decompression bomb's shape.
    const png = Buffer.from(await solid(8, 8).png().toBuffer());
    png.writeUInt32BE(10_000, 16);
    png.writeUInt32BE(10_000, 20);
    // The header chunk's checksum covers its type and data (bytes 12–28).
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    expect(10_000 * 10_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    expect((await sharp(png).metadata()).width).toBe(10_000);
    expect((await refusal(processImage(png, profileOptions))).code).toBe("too-many-pixels");
  });

  it("calls a file with a photo's header but broken data unreadable", async () => {
    const png = await solid(300, 300).png().toBuffer();
    const broken = png.subarray(0, 60);
    expect((await refusal(processImage(broken, profileOptions))).code).toBe("unreadable");
  });

  it("gives the same upload the same hash and another upload another", async () => {
    const a = await solid(50, 50).png().toBuffer();
    const b = await solid(51, 50).png().toBuffer();
    const [first, again, other] = await Promise.all([
      processImage(a, profileOptions),
      processImage(a, profileOptions),
      processImage(b, profileOptions),
    ]);
    expect(first.hash).toBe(again.hash);
    expect(first.hash).not.toBe(other.hash);
  });
});

describe("storeImage", () => {
  it("stores every size under the key base and gives their URLs", async () => {
    const storage = createMemoryStorage();
    const image = await processImage(await solid(500, 500).png().toBuffer(), profileOptions);
    const stored = await storeImage(storage, `images/profilePics/u1/${image.hash}`, image);
    expect(stored.map((variant) => variant.key)).toEqual([
      `images/profilePics/u1/${image.hash}-160.webp`,
      `images/profilePics/u1/${image.hash}-480.webp`,
    ]);
    expect(stored[1]?.url).toBe(`/media-files/images/profilePics/u1/${image.hash}-480.webp`);
    expect(storage.objects.get(stored[0]?.key ?? "")?.contentType).toBe("image/webp");

    expect(
      await deleteStoredKeys(
        storage,
        stored.map((variant) => variant.key),
      ),
    ).toEqual([]);
    expect(storage.objects.size).toBe(0);
  });

  it("removes what it wrote when a later write fails", async () => {
    const storage = createMemoryStorage();
    const failing = {
      ...storage,
      put: async (key: string, bytes: Uint8Array, type: string) => {
        if (key.endsWith("-480.webp")) throw new Error("disk full");
        await storage.put(key, bytes, type);
      },
    };
    const image = await processImage(await solid(500, 500).png().toBuffer(), profileOptions);
    await expect(storeImage(failing, "images/profilePics/u2/x", image)).rejects.toThrow("disk full");
    expect(storage.objects.size).toBe(0);
  });
});
