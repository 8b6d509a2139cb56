import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { chatMembers, chatMessages, posts, user } from "../db/schema";
import { deleteStoredKeys, isMediaError, processImage, storeImage } from "../media/images";
import { shownTo, visibilityNow } from "../moderation/visibility";
import { isPostError } from "../posts/errors";
import { checkPostFiles, POST_FILE_TYPES, POST_IMAGE_VARIANTS } from "../posts/media";
import { MAX_POST_IMAGE_BYTES, POST_MESSAGES } from "../posts/schemas";
import { ChatError, messageTooLong } from "./errors";
import {
  CHAT_MESSAGES,
  countMessageCharacters,
  MAX_MESSAGE_CHARACTERS,
  MAX_MESSAGE_FIELD_LENGTH,
} from "./schemas.shared";

/** What one message may carry (spec 2 §3 Message, §5 'Chat message'). */
export interface MessageInput {
  /** Plain text; line breaks count 2 (spec 2 §5). */
  text?: string | null;
  /** A post of the sender's campus to share as a card. */
  postId?: string | null;
  /** At most one photo (spec 2 §5 'one file only'). */
  files?: readonly Blob[];
  /** docs/product/safety.md: 'Send anyway' after the nudge; the sender saw it and sends as written. */
  acknowledgedNudge?: boolean;
}

export interface CheckedMessage {
  text: string;
  postId: string | null;
  photo: Blob | null;
}

export interface StoredMessagePhoto {
  imgPath: string;
  thumbPath: string;
  imgWidth: number;
  imgHeight: number;
}

/**
 * spec 2 §5 'Chat message': needs text, a photo or a shared post; text at most 500 characters
 * by the posts' counting rule ('Error: Too many characters!'); one file, checked by its content
 * as post files are ('Only photos & videos are allowed!'); a video is refused (decision 0233).
 */
export async function checkMessage(
  ctx: AppContext,
  sender: { id: string; campusId: string },
  input: MessageInput,
): Promise<CheckedMessage> {
  const campusId = sender.campusId;
  const raw = (input.text ?? "").replace(/\r\n?/g, "\n");
  if (raw.includes("\u0000")) throw new ChatError("invalid-input", CHAT_MESSAGES.somethingWentWrong);
  if (raw.length > MAX_MESSAGE_FIELD_LENGTH || countMessageCharacters(raw) > MAX_MESSAGE_CHARACTERS)
    throw messageTooLong();
  const text = raw.trim() === "" ? "" : raw.replace(/^\n+|\s+$/g, "");

  const files = input.files ?? [];
  if (files.length > 1) throw new ChatError("unsupported-file", CHAT_MESSAGES.onePhoto);
  let photo: Blob | null = null;
  if (files[0]) {
    const [checked] = await checkPostFiles([files[0]]).catch((error: unknown) => {
      throw isPostError(error) ? new ChatError(asFileCode(error.code), error.message) : error;
    });
    if (checked?.kind !== "image") throw new ChatError("unsupported-file", CHAT_MESSAGES.noVideos);
    photo = checked.file;
  }

  let postId: string | null = null;
  if (input.postId) {
    if (!isUuid(input.postId)) throw new ChatError("invalid-input", POST_MESSAGES.postGone);
    // Decision 0546: only a post the sender may see (not hidden, removed or a suspended author's).
    const [post] = await ctx.db
      .select({ id: posts.id })
      .from(posts)
      .innerJoin(user, eq(user.id, posts.authorId))
      .where(
        and(
          eq(posts.id, input.postId),
          eq(posts.campusId, campusId),
          shownTo(sender.id, visibilityNow(ctx.clock.now())),
        ),
      )
      .limit(1);
    if (!post) throw new ChatError("invalid-input", POST_MESSAGES.postGone);
    postId = post.id;
  }

  if (text === "" && !photo && !postId) throw new ChatError("empty", CHAT_MESSAGES.empty);
  return { text, postId, photo };
}

function asFileCode(code: string): "unsupported-file" | "file-too-large" | "unreadable-file" {
  if (code === "file-too-large") return "file-too-large";
  if (code === "unreadable-file") return "unreadable-file";
  return "unsupported-file";
}

/**
 * Writes a message's photo through the storage seam at `images/messages/{messageId}/{random}…`
 * (spec 2 §7 upload paths), re-encoded to WebP with its metadata stripped by the posts'
 * pipeline (server/media/images.ts): 480 px for the chat, 1080 px when opened. The name is 128
 * random bits, not a hash of the photo (decision 0463): nobody who has the photo
 * can work out its address.
 */
export async function storeMessagePhoto(
  ctx: AppContext,
  messageId: string,
  photo: Blob,
): Promise<StoredMessagePhoto> {
  const bytes = new Uint8Array(await photo.arrayBuffer());
  const base = `${MESSAGE_PHOTO_KEY_PREFIX}${messageId}/${randomBytes(16).toString("hex")}`;
  const image = await processImage(bytes, {
    allowed: POST_FILE_TYPES,
    variants: POST_IMAGE_VARIANTS,
    maxBytes: MAX_POST_IMAGE_BYTES,
  }).catch((error: unknown) => {
    if (!isMediaError(error)) throw error;
    if (error.code === "unsupported-type")
      throw new ChatError("unsupported-file", CHAT_MESSAGES.onlyPhotosAndVideos);
    if (error.code === "unreadable") throw new ChatError("unreadable-file", POST_MESSAGES.photoUnreadable);
    throw new ChatError("file-too-large", POST_MESSAGES.fileTooLarge);
  });
  const sizes = await storeImage(ctx.storage, base, image);
  const large = sizes.find((size) => size.name === "1080");
  const small = sizes.find((size) => size.name === "480");
  if (!large || !small) throw new Error("a message photo size was not stored");
  return { imgPath: large.key, thumbPath: small.key, imgWidth: large.width, imgHeight: large.height };
}

/** Where message photos are stored (spec 2 §7 upload paths). */
const MESSAGE_PHOTO_KEY_PREFIX = "images/messages/";

/**
 * Decision 0463: chat photos are served here, to the chat's two members only, never
 * at the public MEDIA_URL_PREFIX: `/chat-photos/{messageId}/{name}`.
 */
export const MESSAGE_PHOTO_URL_PREFIX = "/chat-photos";

/** Whether a storage key is a chat photo's (the public media route refuses those). */
export function isMessagePhotoKey(key: string): boolean {
  return key.startsWith(MESSAGE_PHOTO_KEY_PREFIX);
}

/** The address a chat's members load a stored message photo from. */
export function messagePhotoUrl(key: string): string {
  return `${MESSAGE_PHOTO_URL_PREFIX}/${key.slice(MESSAGE_PHOTO_KEY_PREFIX.length)}`;
}

const PHOTO_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/**
 * The storage key behind a chat photo's address (the path after MESSAGE_PHOTO_URL_PREFIX), when
 * `viewer` is a member of the message's chat and the chat is of `campusId` (the host's campus);
 * null otherwise, for a visitor, anyone else, another campus's host or an address that is no
 * photo of that message alike (decision 0463: each answered 404, saying nothing).
 */
export async function readableMessagePhotoKey(
  ctx: AppContext,
  viewer: Viewer | null,
  campusId: string,
  path: string,
): Promise<string | null> {
  if (!viewer) return null;
  const [messageId = "", name = "", ...rest] = path.replace(/^\//, "").split("/");
  if (rest.length > 0 || !isUuid(messageId) || !PHOTO_NAME.test(name)) return null;
  const key = `${MESSAGE_PHOTO_KEY_PREFIX}${messageId}/${name}`;
  const [message] = await ctx.db
    .select({ imgPath: chatMessages.imgPath, thumbPath: chatMessages.thumbPath })
    .from(chatMessages)
    .innerJoin(
      chatMembers,
      and(eq(chatMembers.chatId, chatMessages.chatId), eq(chatMembers.userId, viewer.id)),
    )
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.campusId, campusId)))
    .limit(1);
  if (!message || (message.imgPath !== key && message.thumbPath !== key)) return null;
  return key;
}

/** The storage keys of stored message photos. */
export function photoKeys(rows: readonly { imgPath: string | null; thumbPath: string | null }[]): string[] {
  return rows.flatMap((row) => [row.imgPath, row.thumbPath].filter((key): key is string => key !== null));
}

/** Removes stored files, best effort; returns the keys that could not be removed (logged). */
export async function removeMessageFiles(ctx: AppContext, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const failed = await deleteStoredKeys(ctx.storage, keys);
  if (failed.length > 0) ctx.log.error({ keys: failed }, CHAT_MESSAGES.couldntDeleteAll);
  return failed;
}
