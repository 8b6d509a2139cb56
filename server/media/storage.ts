import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { MEDIA_TYPES, type MediaType } from "./limits.shared";

/** Where stored media is served from (server/http/app.ts). Not /media: that is the media grid page (spec 2 §2). */
export const MEDIA_URL_PREFIX = "/media-files";

/**
 * The media storage seam (docs/architecture.md rule 6): uploaded photos and videos
 * go through it: local disk by default, an S3-compatible bucket with S3_BUCKET
 * (./s3-storage.ts, decision 0292), memory in tests. The app serves every store
 * the same way at MEDIA_URL_PREFIX (server/http/endpoints/media-files.ts). Keys are paths like `images/profilePics/{userId}/…`;
 * what a key names never changes (URLs are cached for a year, decision 0050),
 * so new content always gets a new key.
 */
export interface MediaStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Like put, for content that arrives as a stream: a video is never held whole (decision 0121). */
  putStream(key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<void>;
  /**
   * The stored object, or only `range` of it, as a stream; null when nothing is stored under
   * the key. Throws RangeNotSatisfiable when the range starts past the end.
   */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** Removes a stored object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** The address a browser loads the object from. */
  url(key: string): string;
  /** The key behind an address url() gave, or null for any other address. */
  keyOf(url: string): string | null;
}

/** A byte range asked for (HTTP Range, one range): `start` to `end` inclusive, or the last `suffix` bytes. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface StoredObject {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** The whole object's size in bytes. */
  size: number;
  /** The bytes `body` holds, inclusive, when a range was asked for; null for the whole object. */
  range: { start: number; end: number } | null;
  /** A validator that changes whenever the content could (HTTP ETag, quoted), or null. */
  etag: string | null;
}

/** A range that starts past the object's end (HTTP 416). */
export class RangeNotSatisfiable extends Error {
  constructor(readonly size: number) {
    super(`range not satisfiable (object of ${size} bytes)`);
    this.name = "RangeNotSatisfiable";
  }
}

/** The inclusive bytes a range names in an object of `size` bytes (RFC 9110 §14.1.2). */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  if ("suffix" in range) {
    if (range.suffix <= 0 || size === 0) throw new RangeNotSatisfiable(size);
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) throw new RangeNotSatisfiable(size);
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (end < range.start) throw new RangeNotSatisfiable(size);
  return { start: range.start, end };
}

/** The type a stored file is served with, from its extension (keys end in the type they were stored as). */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  if (extension === "jpg") return MEDIA_TYPES.jpeg.mime;
  return extension in MEDIA_TYPES ? MEDIA_TYPES[extension as MediaType].mime : "application/octet-stream";
}

/** Segments of letters, digits, `_`, `-` and `.` (not starting with a dot); never absolute. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Throws unless the key is a plain relative path: keys come from our code, but a bad one must never escape the folder. */
export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new Error(`invalid media key: ${JSON.stringify(key)}`);
  }
}

/** The key behind `{prefix}/{key}`, or null (every store's keyOf). */
export function keyFromUrl(url: string, prefix: string): string | null {
  if (!url.startsWith(`${prefix}/`)) return null;
  const key = url.slice(prefix.length + 1);
  try {
    assertValidKey(key);
  } catch {
    return null;
  }
  return key;
}

/** Local disk under `root` (DATA_DIR/media by default, docs/contract.md), served by Express at MEDIA_URL_PREFIX. */
export interface DiskStorage extends MediaStorage {
  readonly root: string;
}

export function createDiskStorage(root: string, urlPrefix = MEDIA_URL_PREFIX): DiskStorage {
  const resolvedRoot = path.resolve(root);
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(resolvedRoot, ...key.split("/"));
  };
  return {
    root: resolvedRoot,
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, file);
    },
    async putStream(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
      const handle = await open(partial, "wx");
      try {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await handle.write(value);
        }
        await handle.close();
        await rename(partial, file);
      } catch (error) {
        await handle.close().catch(() => {});
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const file = fileOf(key);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      if (!info.isFile()) return null;
      const bytes = range ? resolveRange(range, info.size) : null;
      const stream = createReadStream(file, bytes ?? {});
      return {
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        contentType: contentTypeOfKey(key),
        size: info.size,
        range: bytes,
        // A file is only ever replaced whole (rename), so its size and time identify its content.
        etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
      };
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    url: (key) => {
      assertValidKey(key);
      return `${urlPrefix}/${key}`;
    },
    keyOf: (url) => keyFromUrl(url, urlPrefix),
  };
}

/** In memory, for tests: what was stored can be read back and counted. */
export interface MemoryStorage extends MediaStorage {
  readonly objects: Map<string, { bytes: Uint8Array; contentType: string }>;
}

export function createMemoryStorage(urlPrefix = MEDIA_URL_PREFIX): MemoryStorage {
  const objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  return {
    objects,
    async put(key, bytes, contentType) {
      assertValidKey(key);
      objects.set(key, { bytes: new Uint8Array(bytes), contentType });
    },
    async putStream(key, body, contentType) {
      assertValidKey(key);
      const chunks: Uint8Array[] = [];
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      objects.set(key, { bytes: new Uint8Array(Buffer.concat(chunks)), contentType });
    },
    async get(key, range) {
      assertValidKey(key);
      const object = objects.get(key);
      if (!object) return null;
      const size = object.bytes.length;
      const bytes = range ? resolveRange(range, size) : null;
      const slice = bytes ? object.bytes.slice(bytes.start, bytes.end + 1) : object.bytes.slice();
      return {
        body: new Blob([slice]).stream(),
        contentType: object.contentType,
        size,
        range: bytes,
        etag: null,
      };
    },
    async delete(key) {
      assertValidKey(key);
      objects.delete(key);
    },
    url: (key) => {
      assertValidKey(key);
      return `${urlPrefix}/${key}`;
    },
    keyOf: (url) => keyFromUrl(url, urlPrefix),
  };
}
