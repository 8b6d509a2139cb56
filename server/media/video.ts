import { createHash } from "node:crypto";
import { planAvi } from "./video-avi";
import { planIsoMedia } from "./video-iso-media";
import type { ByteEdit, VideoContainer } from "./video-reader";

/**
 * Video metadata removal without a re-encoder (decision 0121). A phone
 * video carries where it was filmed (QuickTime `©xyz`, Apple's
 * `com.apple.quicktime.location.ISO6709`, XMP, GoPro or Google location tracks)
 * and more: camera, owner, time. No byte moves: metadata boxes and chunks become
 * padding of the same size (`free` in MP4 and QuickTime, `JUNK` in AVI) with their
 * content zeroed, and the samples of timed-metadata tracks are zeroed where they
 * lie, so every offset the file holds (stco/co64, idx1, indx) stays true and the
 * pictures and sound are untouched.
 *
 * Planning reads headers only (a window at a time, from the file on disk); the
 * edits are then applied to the file as it streams into storage. Anything that
 * does not parse, or parses beyond the bounds below, is refused rather than stored
 * with its metadata.
 */

/**
 * The edits that remove `file`'s metadata. Throws VideoError 'unreadable' for a
 * file that does not parse within the bounds, 'metadata-kept' for one whose
 * metadata cannot be removed this way.
 */
export async function planVideoMetadataRemoval(file: Blob, container: VideoContainer): Promise<ByteEdit[]> {
  const edits = container === "avi" ? await planAvi(file) : await planIsoMedia(file);
  return edits.sort((a, b) => a.start - b.start);
}

/** `source` with `edits` applied as it streams: one chunk in memory at a time, the source's bytes never changed. */
export function applyByteEdits(
  source: ReadableStream<Uint8Array>,
  edits: readonly ByteEdit[],
): ReadableStream<Uint8Array> {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let position = 0;
  let first = 0;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const end = position + chunk.byteLength;
        while (first < sorted.length && (sorted[first]?.end ?? 0) <= position) first++;
        let out = chunk;
        for (let i = first; i < sorted.length; i++) {
          const edit = sorted[i];
          if (!edit || edit.start >= end) break;
          const from = Math.max(edit.start, position);
          const to = Math.min(edit.end, end);
          if (to <= from) continue;
          if (out === chunk) out = new Uint8Array(chunk);
          if (edit.bytes) out.set(edit.bytes.subarray(from - edit.start, to - edit.start), from - position);
          else out.fill(0, from - position, to - position);
        }
        position = end;
        controller.enqueue(out);
      },
    }),
  );
}

/** The video as it will be stored: metadata removed, streamed from `file`. */
export async function videoWithoutMetadata(
  file: Blob,
  container: VideoContainer,
): Promise<ReadableStream<Uint8Array>> {
  const edits = await planVideoMetadataRemoval(file, container);
  return applyByteEdits(file.stream(), edits);
}

/** SHA-256 of a file, read as a stream (a video is never held whole). */
export async function hashFile(file: Blob): Promise<string> {
  const hash = createHash("sha256");
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.digest("hex");
}
