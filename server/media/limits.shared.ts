import type { ImageVariantSpec } from "./images";

// Upload limits and accepted kinds, free of Node-only imports so the browser's
// forms can check them too (the server checks again: server/media/images.ts).

/**
 * The kinds of upload the product accepts anywhere (spec 1 §5 profile photo:
 * jpeg, jpg, png, gif; spec 2 §5 post files add webp, mp4, mov/quicktime, avi).
 * Each caller passes the subset it allows.
 */
export type MediaType = "jpeg" | "png" | "gif" | "webp" | "mp4" | "mov" | "avi";

export const MEDIA_TYPES: Record<MediaType, { mime: string; kind: "image" | "video" }> = {
  jpeg: { mime: "image/jpeg", kind: "image" },
  png: { mime: "image/png", kind: "image" },
  gif: { mime: "image/gif", kind: "image" },
  webp: { mime: "image/webp", kind: "image" },
  mp4: { mime: "video/mp4", kind: "video" },
  mov: { mime: "video/quicktime", kind: "video" },
  avi: { mime: "video/x-msvideo", kind: "video" },
};

/** spec 1 §5 'Profile photo': only jpeg, jpg, png, gif. */
export const PROFILE_PHOTO_TYPES = ["jpeg", "png", "gif"] as const satisfies readonly MediaType[];

/** What the file input offers (spec 1 §5: 'The file input accepts png, gif, jpeg, jpg'). */
export const PROFILE_PHOTO_ACCEPT = ".png,.gif,.jpeg,.jpg,image/png,image/gif,image/jpeg";

/** Decision 0050: one photo may be at most 10 MB as uploaded (a phone's full-size JPEG fits). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Decision 0050: a photo may hold at most 50 million pixels once decoded (a 48 MP
 * phone photo fits). Larger ones are refused before decoding, so a small file
 * that expands to gigabytes cannot exhaust the server's memory.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Profile photos are shown round, 40 to 128 CSS pixels wide: a small and a large square (decision 0050). */
export const PROFILE_PHOTO_VARIANTS = [
  { name: "160", width: 160, square: true },
  { name: "480", width: 480, square: true },
] as const satisfies readonly ImageVariantSpec[];

/** Both sizes of a stored profile photo (decision 0050): `img` holds the large one. */
export function profilePhotoSizes(img: string | null): { small: string; large: string } | null {
  if (!img) return null;
  const [small, large] = PROFILE_PHOTO_VARIANTS;
  const suffix = `-${large.name}.webp`;
  if (!img.endsWith(suffix)) return { small: img, large: img };
  return { small: `${img.slice(0, -suffix.length)}-${small.name}.webp`, large: img };
}
