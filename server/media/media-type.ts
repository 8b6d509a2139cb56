import { fileTypeFromBuffer } from "file-type";
import type { MediaType } from "./limits.shared";

// The kinds and their lists live in ./limits (no Node-only imports, so forms can use them).
export { MEDIA_TYPES, type MediaType, PROFILE_PHOTO_ACCEPT, PROFILE_PHOTO_TYPES } from "./limits.shared";

/**
 * What a file is, from its first bytes (docs/architecture.md: `file-type` sniffs magic
 * bytes, never the name): a text file renamed .png is not a PNG. Null for
 * anything outside MediaType.
 */
export async function sniffMediaType(bytes: Uint8Array): Promise<MediaType | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return null;
  switch (found.mime) {
    case "image/jpeg":
      return "jpeg";
    // An animated PNG is a PNG whose first frame every decoder can show.
    case "image/png":
    case "image/apng":
      return "png";
    case "image/gif":
      return "gif";
    case "image/webp":
      return "webp";
    case "video/quicktime":
      return "mov";
    case "video/vnd.avi":
    case "video/x-msvideo":
      return "avi";
    case "video/mp4":
    case "video/x-m4v":
      // file-type labels several ISO media brands video/mp4 (f4v, m4p); only the MP4 and M4V brands are MP4 video.
      return found.ext === "mp4" || found.ext === "m4v" ? "mp4" : null;
    default:
      return null;
  }
}
