import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where stored media is served from (server/http/app.ts). Not /media: that is the media grid page (spec 2 §2). */
export const MEDIA_URL_PREFIX = "/media-files";

/**
 * The media storage seam (ARCHITECTURE.md rule 6): uploaded photos and videos
 * go through it, so tests use memory and a later S3-compatible bucket needs no
 * change to the callers. Keys are paths like `images/profilePics/{userId}/…`;
 * what a key names never changes (URLs are cached for a year, decision 0050),
 * so new content always gets a new key.
 */
export interface MediaStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Like put, for content that arrives as a stream: a video is never held whole (decision 0121). */
  putStream(key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<void>;
  /** Removes a stored object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** The address a browser loads the object from. */
  url(key: string): string;
  /** The key behind an address url() gave, or null for any other address. */
  keyOf(url: string): string | null;
}

/** Segments of letters, digits, `_`, `-` and `.` (not starting with a dot); never absolute. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Throws unless the key is a plain relative path: keys come from our code, but a bad one must never escape the folder. */
export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new Error(`invalid media key: ${JSON.stringify(key)}`);
  }
}

function keyFromUrl(url: string, prefix: string): string | null {
  if (!url.startsWith(`${prefix}/`)) return null;
  const key = url.slice(prefix.length + 1);
  try {
    assertValidKey(key);
  } catch {
    return null;
  }
  return key;
}

/** Local disk under `root` (DATA_DIR/media by default, CONTRACT.md), served by Express at MEDIA_URL_PREFIX. */
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
