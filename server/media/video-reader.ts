/** What video metadata removal (video.ts) shares: its types, bounds and errors, and a windowed reader of the file on disk. */

export type VideoContainer = "mp4" | "mov" | "avi";

/** Bytes [start, end) of the file become `bytes` (same length) or, without it, zeros. */
export interface ByteEdit {
  start: number;
  end: number;
  bytes?: Uint8Array;
}

/**
 * At most this many boxes (MP4, QuickTime) or chunks (AVI) are looked at: an AVI
 * of an hour holds a few hundred thousand frame and sound chunks.
 */
export const MAX_VIDEO_BOXES = 1_000_000;
/** The movie header (`moov`) is read whole; real ones are kilobytes to a few megabytes. */
export const MAX_MOVIE_HEADER_BYTES = 32 * 1024 * 1024;
/** Boxes inside one another, and AVI lists inside one another. */
export const MAX_DEPTH = 8;

/**
 * Why a video was refused: 'unreadable' (its container does not parse within the
 * bounds) or 'metadata-kept' (it parses, but its metadata cannot be removed this
 * way). The message is for logs; the caller words it for its screen.
 */
export class VideoError extends Error {
  constructor(
    readonly code: "unreadable" | "metadata-kept",
    message: string,
  ) {
    super(message);
    this.name = "VideoError";
  }
}

export function isVideoError(error: unknown): error is VideoError {
  return error instanceof VideoError;
}

export function unreadable(reason: string): VideoError {
  return new VideoError("unreadable", `The video could not be read: ${reason}.`);
}

export function metadataKept(reason: string): VideoError {
  return new VideoError("metadata-kept", `The video's metadata could not be removed: ${reason}.`);
}

const latin1 = new TextDecoder("latin1");
export const fourCC = (bytes: Uint8Array, at: number) => latin1.decode(bytes.subarray(at, at + 4));
export const ascii = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

/** Reads a file a window at a time, so walking many small headers costs few reads. */
export class WindowReader {
  private start = 0;
  private bytes = new Uint8Array(0);

  constructor(
    private readonly file: Blob,
    private readonly windowBytes = 1024 * 1024,
  ) {}

  get size(): number {
    return this.file.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (offset < 0 || length < 0 || offset + length > this.file.size)
      throw unreadable("a header runs past the end");
    const from = offset - this.start;
    if (from >= 0 && from + length <= this.bytes.byteLength) return this.bytes.subarray(from, from + length);
    if (length > this.windowBytes)
      return new Uint8Array(await this.file.slice(offset, offset + length).arrayBuffer());
    this.start = offset;
    this.bytes = new Uint8Array(
      await this.file.slice(offset, Math.min(this.file.size, offset + this.windowBytes)).arrayBuffer(),
    );
    return this.bytes.subarray(0, length);
  }
}

export class Budget {
  private seen = 0;
  count(): void {
    this.seen++;
    if (this.seen > MAX_VIDEO_BOXES) throw unreadable("too many boxes");
  }
}
