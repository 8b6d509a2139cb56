import { createHash } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MEDIA_TYPES, type MediaType } from "./limits.shared";
import { sniffMediaType } from "./media-type";
import type { MediaStorage } from "./storage";

export type MediaErrorCode = "unsupported-type" | "too-large" | "too-many-pixels" | "unreadable";

/** Why an upload was refused; the caller words it for its screen (profile photo, post photo…). */
export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "MediaError";
  }
}

export function isMediaError(error: unknown): error is MediaError {
  return error instanceof MediaError;
}

export interface ImageVariantSpec {
  /** Names the stored file: `{keyBase}-{name}.webp`. */
  name: string;
  /** Width in pixels; never enlarged beyond the source. */
  width: number;
  /** Square crop (profile pictures are round); otherwise the aspect ratio is kept. */
  square?: boolean;
}

export { PROFILE_PHOTO_VARIANTS } from "./limits.shared";

export interface ProcessImageOptions {
  /** The types this upload accepts (e.g. PROFILE_PHOTO_TYPES); decided by content, never by name. */
  allowed: readonly MediaType[];
  variants: readonly ImageVariantSpec[];
  maxBytes?: number;
}

export interface ProcessedVariant {
  name: string;
  width: number;
  height: number;
  bytes: Buffer;
  contentType: "image/webp";
}

export interface ProcessedImage {
  /** What the upload was, by its magic bytes. */
  sourceType: MediaType;
  /** Of the uploaded bytes: part of every key, so new content always gets new URLs. */
  hash: string;
  variants: ProcessedVariant[];
}

/**
 * Checks an uploaded image and re-encodes it (docs/architecture.md 'images'): the
 * type from its magic bytes, the size cap, then sharp turns it upright (EXIF
 * orientation), and writes WebP in each requested size. sharp writes no
 * metadata unless asked, so EXIF (GPS position, camera, time) never leaves this
 * function: students' phone photos carry where they live.
 */
export async function processImage(bytes: Uint8Array, options: ProcessImageOptions): Promise<ProcessedImage> {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  if (bytes.byteLength > maxBytes) throw new MediaError("too-large", "The file is too large.");
  const sourceType = bytes.byteLength > 0 ? await sniffMediaType(bytes) : null;
  if (!sourceType || MEDIA_TYPES[sourceType].kind !== "image" || !options.allowed.includes(sourceType)) {
    throw new MediaError("unsupported-type", "This type of file is not accepted here.");
  }

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    throw new MediaError("unreadable", "The image could not be read.");
  }
  const frameWidth = metadata.width ?? 0;
  const frameHeight = metadata.pageHeight ?? metadata.height ?? 0;
  const pages = metadata.pages ?? 1;
  if (frameWidth * frameHeight > MAX_IMAGE_PIXELS) {
    throw new MediaError("too-many-pixels", "The image has too many pixels.");
  }
  // Animated GIFs and WebPs stay animated unless all their frames together are too big to decode.
  const animated = pages > 1 && frameWidth * frameHeight * pages <= MAX_IMAGE_PIXELS;

  const squareSide = (spec: ImageVariantSpec) => Math.max(1, Math.min(spec.width, frameWidth, frameHeight));
  const variants: ProcessedVariant[] = [];
  try {
    const source = sharp(bytes, { animated, limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
    for (const spec of options.variants) {
      const { data, info } = await source
        .clone()
        .resize(
          spec.square
            ? // The largest centred square up to the asked size; never enlarged.
              { width: squareSide(spec), height: squareSide(spec), fit: "cover" }
            : { width: spec.width, withoutEnlargement: true },
        )
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      variants.push({
        name: spec.name,
        width: info.width,
        height: info.pageHeight ?? info.height,
        bytes: data,
        contentType: "image/webp",
      });
    }
  } catch {
    throw new MediaError("unreadable", "The image could not be read.");
  }

  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  return { sourceType, hash, variants };
}

export interface StoredVariant {
  name: string;
  key: string;
  url: string;
  width: number;
  height: number;
}

/** The key of one size of a stored image: `{keyBase}-{name}.webp`. */
export function variantKey(keyBase: string, name: string): string {
  return `${keyBase}-${name}.webp`;
}

/** Writes every size of a processed image through the storage seam; on failure removes what was written. */
export async function storeImage(
  storage: MediaStorage,
  keyBase: string,
  image: ProcessedImage,
): Promise<StoredVariant[]> {
  const stored: StoredVariant[] = [];
  try {
    for (const variant of image.variants) {
      const key = variantKey(keyBase, variant.name);
      await storage.put(key, variant.bytes, variant.contentType);
      stored.push({
        name: variant.name,
        key,
        url: storage.url(key),
        width: variant.width,
        height: variant.height,
      });
    }
  } catch (error) {
    await deleteStoredKeys(
      storage,
      stored.map((variant) => variant.key),
    );
    throw error;
  }
  return stored;
}

/** Removes stored objects, best effort: a leftover file is harmless, a failed request is not. */
export async function deleteStoredKeys(storage: MediaStorage, keys: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const key of keys) {
    try {
      await storage.delete(key);
    } catch {
      failed.push(key);
    }
  }
  return failed;
}
