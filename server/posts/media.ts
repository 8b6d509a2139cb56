import { createHash } from "node:crypto";
import type { AppContext } from "../context";
import {
  deleteStoredKeys,
  type ImageVariantSpec,
  isMediaError,
  type MediaErrorCode,
  processImage,
  storeImage,
  variantKey,
} from "../media/images";
import { MEDIA_TYPES, type MediaType } from "../media/limits.shared";
import { sniffMediaType } from "../media/media-type";
import { hashFile, videoWithoutMetadata } from "../media/video";
import { isVideoError, type VideoContainer, type VideoError } from "../media/video-reader";
import { PostError } from "./errors";
import { MAX_POST_FILES, MAX_POST_IMAGE_BYTES, MAX_POST_VIDEO_BYTES, POST_MESSAGES } from "./schemas";

/** spec 2 §5: jpeg, jpg, png, gif, webp, mp4, mov (quicktime), avi — by content (docs/architecture.md 'file type'). */
export const POST_FILE_TYPES = [
  "jpeg",
  "png",
  "gif",
  "webp",
  "mp4",
  "mov",
  "avi",
] as const satisfies readonly MediaType[];

/**
 * Decision 0082: a post photo is stored as WebP twice: 480 px wide for grids and
 * lists, 1080 px for the post page (spec 2 §9 shows photos up to 500 CSS px: 1080 is
 * sharp on a 2× screen). Never enlarged; the aspect ratio is kept.
 */
export const POST_IMAGE_VARIANTS = [
  { name: "480", width: 480 },
  { name: "1080", width: 1080 },
] as const satisfies readonly ImageVariantSpec[];

/** How many bytes `file-type` needs to recognise every accepted type. */
const SNIFF_BYTES = 4100;

/** An uploaded file after the checks that need no decoding: count, type by content, size. */
export interface CheckedPostFile {
  file: Blob;
  type: (typeof POST_FILE_TYPES)[number];
  kind: "image" | "video";
}

/** What a stored file becomes: the columns of one `post_media` row. */
export interface StoredPostFile {
  kind: "image" | "video";
  /** spec 2 §9: from 1. */
  imgOrder: number;
  imgPath: string;
  thumbPath: string | null;
  imgName: string;
  imgWidth: number | null;
  imgHeight: number | null;
}

/**
 * spec 2 §5, in the order the composer reports them: more than 10 files → 'Please
 * choose up to 10 photos.' (okay); anything whose bytes are not an accepted photo
 * or video, whatever its name → 'Only photos & videos are allowed!' (danger); then
 * the size caps of decision 0082. Reads only the first bytes of each file.
 */
export async function checkPostFiles(files: readonly Blob[]): Promise<CheckedPostFile[]> {
  if (files.length > MAX_POST_FILES)
    throw new PostError("too-many-files", POST_MESSAGES.tooManyFiles, "okay");
  const checked: CheckedPostFile[] = [];
  for (const file of files) {
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    const type = head.byteLength > 0 ? await sniffMediaType(head) : null;
    const accepted = POST_FILE_TYPES.find((allowed) => allowed === type);
    if (!accepted) throw new PostError("unsupported-file", POST_MESSAGES.onlyPhotosAndVideos);
    checked.push({ file, type: accepted, kind: MEDIA_TYPES[accepted].kind });
  }
  for (const { file, kind } of checked) {
    const cap = kind === "image" ? MAX_POST_IMAGE_BYTES : MAX_POST_VIDEO_BYTES;
    if (file.size > cap) throw new PostError("file-too-large", POST_MESSAGES.fileTooLarge);
  }
  return checked;
}

function shortHash(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 20);
}

/** The storage keys of a stored file (both WebP sizes of a photo). */
export function storedFileKeys(file: { imgPath: string; thumbPath: string | null }): string[] {
  return file.thumbPath ? [file.imgPath, file.thumbPath] : [file.imgPath];
}

/**
 * Writes the files of post `postId` through the storage seam at
 * `images/posts/{postId}/…` (spec 2 §7 upload paths): photos re-encoded by the
 * shared pipeline (WebP, metadata stripped, dimensions recorded), videos with their
 * metadata removed in place (decision 0121: the location a phone records goes).
 * Runs before the post's transaction; if any file fails, what was written is
 * removed and nothing is left behind.
 */
export async function storePostFiles(
  ctx: AppContext,
  postId: string,
  files: readonly CheckedPostFile[],
  /**
   * Decision 0640: an edit's files follow the kept ones (`firstOrder`), and their keys carry the
   * edit's own `keyTag`, so a new file never takes the key of one the same edit removes.
   */
  options: { firstOrder?: number; keyTag?: string } = {},
): Promise<StoredPostFile[]> {
  const stored: StoredPostFile[] = [];
  const tag = options.keyTag ? `${options.keyTag}-` : "";
  try {
    for (const [index, checked] of files.entries()) {
      const imgOrder = index + (options.firstOrder ?? 1);
      if (checked.kind === "video") {
        // Read as streams from the upload's file on disk, never whole (decision 0121).
        const base = `images/posts/${postId}/${imgOrder}-${tag}${(await hashFile(checked.file)).slice(0, 20)}`;
        const key = `${base}.${checked.type}`;
        const video = await videoWithoutMetadata(checked.file, videoContainer(checked.type)).catch(
          (error: unknown) => {
            throw isVideoError(error) ? videoRefusal(error.code) : error;
          },
        );
        await ctx.storage.putStream(key, video, MEDIA_TYPES[checked.type].mime);
        stored.push({
          kind: "video",
          imgOrder,
          imgPath: key,
          thumbPath: null,
          imgName: key.slice(key.lastIndexOf("/") + 1),
          imgWidth: null,
          imgHeight: null,
        });
        continue;
      }
      const bytes = new Uint8Array(await checked.file.arrayBuffer());
      const base = `images/posts/${postId}/${imgOrder}-${tag}${shortHash(bytes)}`;
      const image = await processImage(bytes, {
        allowed: POST_FILE_TYPES,
        variants: POST_IMAGE_VARIANTS,
        maxBytes: MAX_POST_IMAGE_BYTES,
      }).catch((error: unknown) => {
        throw isMediaError(error) ? mediaRefusal(error.code) : error;
      });
      const sizes = await storeImage(ctx.storage, base, image);
      const large = sizes.find((size) => size.name === "1080");
      const small = sizes.find((size) => size.name === "480");
      if (!large || !small) throw new Error("a post photo size was not stored");
      stored.push({
        kind: "image",
        imgOrder,
        imgPath: large.key,
        thumbPath: small.key,
        imgName: variantKey(base, "1080").slice(base.lastIndexOf("/") + 1),
        imgWidth: large.width,
        imgHeight: large.height,
      });
    }
  } catch (error) {
    await removePostFiles(ctx, stored.flatMap(storedFileKeys));
    throw error;
  }
  return stored;
}

function videoContainer(type: CheckedPostFile["type"]): VideoContainer {
  if (type === "mp4" || type === "mov" || type === "avi") return type;
  throw new Error(`not a video type: ${type}`);
}

/** Decision 0121: a video is stored without its metadata or not at all, and the user is told why. */
function videoRefusal(code: VideoError["code"]): PostError {
  return code === "metadata-kept"
    ? new PostError("unreadable-file", POST_MESSAGES.videoMetadataKept)
    : new PostError("unreadable-file", POST_MESSAGES.videoUnreadable);
}

function mediaRefusal(code: MediaErrorCode): PostError {
  switch (code) {
    case "unsupported-type":
      return new PostError("unsupported-file", POST_MESSAGES.onlyPhotosAndVideos);
    case "too-large":
      return new PostError("file-too-large", POST_MESSAGES.fileTooLarge);
    case "too-many-pixels":
      return new PostError("file-too-large", POST_MESSAGES.photoTooManyPixels);
    case "unreadable":
      return new PostError("unreadable-file", POST_MESSAGES.photoUnreadable);
  }
}

/**
 * Removes stored files, best effort (spec 2 §8 'Couldn't delete post images'):
 * a failure is logged with the keys left behind, never thrown, because the rows
 * are already gone and the user's delete has succeeded.
 */
export async function removePostFiles(ctx: AppContext, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const failed = await deleteStoredKeys(ctx.storage, keys);
  if (failed.length > 0) ctx.log.error({ keys: failed }, POST_MESSAGES.couldntDeleteImages);
  return failed;
}

/** The post_media rows of a new post's or comment's stored files, in the order shown. */
export function mediaRows(postId: string, campusId: string, stored: readonly StoredPostFile[]) {
  return stored.map((file) => ({
    postId,
    campusId,
    kind: file.kind,
    imgPath: file.imgPath,
    thumbPath: file.thumbPath,
    imgName: file.imgName,
    imgOrder: file.imgOrder,
    imgWidth: file.imgWidth,
    imgHeight: file.imgHeight,
  }));
}
