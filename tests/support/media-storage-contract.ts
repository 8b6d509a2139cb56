import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveMediaFiles } from "../../server/http/endpoints/media-files";
import {
  assertValidKey,
  MEDIA_URL_PREFIX,
  type MediaStorage,
  RangeNotSatisfiable,
} from "../../server/media/storage";

/**
 * What every media store does (decision 0292): the same tests run against local disk, memory
 * and an S3-compatible bucket (server/media/storage.test.ts, server/media/s3-storage.test.ts),
 * through the store itself and through the app's media route (server/http/endpoints/media-files.ts).
 */
export interface StorageUnderTest {
  storage: MediaStorage;
  /** Checks the store's own view, beyond the contract (e.g. no partial file left on disk). */
  close?(): Promise<void>;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<number[]> {
  return [...new Uint8Array(await new Response(body).arrayBuffer())];
}

/** Bytes 0, 1, 2, … 255, 0, 1, … : every range reads back as something checkable. */
function counting(length: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length }, (_, index) => index % 256);
}

export function describeMediaStorageContract(name: string, open: () => Promise<StorageUnderTest>) {
  describe(`${name}: the media storage contract`, () => {
    let subject: StorageUnderTest;
    let storage: MediaStorage;
    let base = "";
    let server: Server | null = null;
    // Each store gets its own keys, so stores sharing a folder or bucket do not meet.
    const prefix = `contract/${name.replace(/[^A-Za-z0-9]+/g, "-")}`;

    beforeAll(async () => {
      subject = await open();
      storage = subject.storage;
      const app = express();
      app.use(MEDIA_URL_PREFIX, serveMediaFiles(storage));
      const listening = await new Promise<Server>((resolve) => {
        const started = app.listen(0, "127.0.0.1", () => resolve(started));
      });
      server = listening;
      base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await subject?.close?.();
    });

    it("stores bytes under a key, reads them back with their type, gives a URL for the key, and deletes", async () => {
      const key = `${prefix}/images/profilePics/user1/abc-480.webp`;
      await storage.put(key, new Uint8Array([1, 2, 3]), "image/webp");
      const object = await storage.get(key);
      expect(object).not.toBeNull();
      expect(object?.contentType).toBe("image/webp");
      expect(object?.size).toBe(3);
      expect(object?.range).toBeNull();
      expect(await readAll(object?.body ?? new Blob([]).stream())).toEqual([1, 2, 3]);

      expect(storage.url(key)).toBe(`/media-files/${key}`);
      expect(storage.keyOf(storage.url(key))).toBe(key);
      expect(storage.keyOf("https://elsewhere.example/a.png")).toBeNull();
      expect(storage.keyOf("/media-files/../secret")).toBeNull();

      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      // Deleting what is not there is not an error.
      await storage.delete(key);
    });

    it("replaces what a key held when put again", async () => {
      const key = `${prefix}/images/posts/p1/again.webp`;
      await storage.put(key, new Uint8Array([1]), "image/webp");
      await storage.put(key, new Uint8Array([2, 2]), "image/webp");
      expect(await readAll((await storage.get(key))?.body ?? new Blob([]).stream())).toEqual([2, 2]);
    });

    it("writes a stream, several parts long, and leaves nothing under the key when the stream fails", async () => {
      const key = `${prefix}/images/posts/p1/1-abc.mp4`;
      // More than one S3 upload part (8 MiB), in uneven chunks.
      const whole = counting(9 * 1024 * 1024 + 123);
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      for (let at = 0; at < whole.length; at += 700_001) chunks.push(whole.subarray(at, at + 700_001));
      await storage.putStream(key, new Blob(chunks).stream(), "video/mp4");
      const stored = await storage.get(key);
      expect(stored?.contentType).toBe("video/mp4");
      expect(stored?.size).toBe(whole.length);
      const back = new Uint8Array(await new Response(stored?.body).arrayBuffer());
      expect(back.length).toBe(whole.length);
      expect(Buffer.compare(back, whole)).toBe(0);

      const small = `${prefix}/images/posts/p1/small.mp4`;
      await storage.putStream(
        small,
        new Blob([new Uint8Array([1, 2]), new Uint8Array([3])]).stream(),
        "video/mp4",
      );
      expect(await readAll((await storage.get(small))?.body ?? new Blob([]).stream())).toEqual([1, 2, 3]);

      for (const sizeBeforeFailure of [1, 9 * 1024 * 1024]) {
        let sent = 0;
        const failing = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= sizeBeforeFailure) controller.error(new Error("the upload broke off"));
            else {
              const chunk = counting(Math.min(1024 * 1024, sizeBeforeFailure - sent));
              sent += chunk.length;
              controller.enqueue(chunk);
            }
          },
        });
        const broken = `${prefix}/images/posts/p1/2-def-${sizeBeforeFailure}.mp4`;
        await expect(storage.putStream(broken, failing, "video/mp4")).rejects.toThrow("the upload broke off");
        expect(await storage.get(broken)).toBeNull();
      }
      await expect(storage.putStream("../x.mp4", new Blob([]).stream(), "video/mp4")).rejects.toThrow();
    });

    it("reads a range: from–to, from to the end, the last n bytes; a range past the end is refused", async () => {
      const key = `${prefix}/images/posts/p2/clip.mp4`;
      await storage.put(key, counting(1000), "video/mp4");
      const middle = await storage.get(key, { start: 10, end: 19 });
      expect(middle?.range).toEqual({ start: 10, end: 19 });
      expect(middle?.size).toBe(1000);
      expect(await readAll(middle?.body ?? new Blob([]).stream())).toEqual([...counting(20).subarray(10)]);

      const tail = await storage.get(key, { start: 995 });
      expect(tail?.range).toEqual({ start: 995, end: 999 });
      expect(await readAll(tail?.body ?? new Blob([]).stream())).toEqual([227, 228, 229, 230, 231]);

      const last = await storage.get(key, { suffix: 3 });
      expect(last?.range).toEqual({ start: 997, end: 999 });
      expect(await readAll(last?.body ?? new Blob([]).stream())).toEqual([229, 230, 231]);

      const beyond = await storage.get(key, { start: 990, end: 5000 });
      expect(beyond?.range).toEqual({ start: 990, end: 999 });
      await beyond?.body.cancel();

      await expect(storage.get(key, { start: 1000 })).rejects.toBeInstanceOf(RangeNotSatisfiable);
      expect(await storage.get(`${prefix}/images/posts/p2/none.mp4`, { start: 0 })).toBeNull();
    });

    it("refuses keys that could leave its folder or bucket", async () => {
      for (const key of ["../outside.webp", "/etc/passwd", "a/../../b", "a//b", ".hidden", "a/.b", ""]) {
        expect(() => assertValidKey(key)).toThrow();
        await expect(storage.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow();
        await expect(storage.get(key)).rejects.toThrow();
      }
    });

    describe("served at /media-files", () => {
      const key = `${prefix}/images/posts/p3/1-xyz.mp4`;
      beforeAll(async () => {
        await storage.put(key, counting(2000), "video/mp4");
        await storage.put(`${prefix}/images/posts/p3/photo.webp`, new Uint8Array([7, 7]), "image/webp");
      });

      it("answers the whole object with its type, a year of caching and nosniff", async () => {
        const response = await fetch(`${base}/media-files/${key}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("video/mp4");
        expect(response.headers.get("content-length")).toBe("2000");
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("accept-ranges")).toBe("bytes");
        expect(new Uint8Array(await response.arrayBuffer())).toEqual(counting(2000));

        const photo = await fetch(`${base}/media-files/${prefix}/images/posts/p3/photo.webp`);
        expect(photo.headers.get("content-type")).toBe("image/webp");
        expect([...new Uint8Array(await photo.arrayBuffer())]).toEqual([7, 7]);
      });

      it("answers a byte range 206 (a video player seeking), and a range past the end 416", async () => {
        const part = await fetch(`${base}/media-files/${key}`, { headers: { Range: "bytes=1000-1003" } });
        expect(part.status).toBe(206);
        expect(part.headers.get("content-range")).toBe("bytes 1000-1003/2000");
        expect(part.headers.get("content-length")).toBe("4");
        expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([232, 233, 234, 235]);

        const open = await fetch(`${base}/media-files/${key}`, { headers: { Range: "bytes=1998-" } });
        expect(open.status).toBe(206);
        expect(open.headers.get("content-range")).toBe("bytes 1998-1999/2000");
        await open.arrayBuffer();

        const suffix = await fetch(`${base}/media-files/${key}`, { headers: { Range: "bytes=-2" } });
        expect(suffix.status).toBe(206);
        expect([...new Uint8Array(await suffix.arrayBuffer())]).toEqual([206, 207]);

        const past = await fetch(`${base}/media-files/${key}`, { headers: { Range: "bytes=5000-" } });
        expect(past.status).toBe(416);
        expect(past.headers.get("content-range")).toBe("bytes */2000");
        await past.arrayBuffer();

        // Several ranges: the whole object (RFC 9110 lets a server ignore Range).
        const several = await fetch(`${base}/media-files/${key}`, { headers: { Range: "bytes=0-1,5-6" } });
        expect(several.status).toBe(200);
        expect((await several.arrayBuffer()).byteLength).toBe(2000);
      });

      it("answers HEAD without a body, and a repeated request with a matching ETag 304 when the store gives one", async () => {
        const head = await fetch(`${base}/media-files/${key}`, { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(head.headers.get("content-length")).toBe("2000");
        const etag = head.headers.get("etag");
        if (etag) {
          const again = await fetch(`${base}/media-files/${key}`, { headers: { "If-None-Match": etag } });
          expect(again.status).toBe(304);
        }
      });

      it("answers 404 for a missing object, a key outside the store's rules, and writes", async () => {
        for (const path of [
          `/media-files/${prefix}/images/none.webp`,
          "/media-files/..%2Fapp-secret",
          "/media-files/%2e%2e/%2e%2e/etc/passwd",
          "/media-files/.hidden",
          "/media-files/",
        ]) {
          const response = await fetch(`${base}${path}`);
          expect(response.status, path).toBe(404);
          await response.arrayBuffer();
        }
        const write = await fetch(`${base}/media-files/${key}`, { method: "PUT", body: "x" });
        expect(write.status).toBe(404);
        await write.arrayBuffer();
        expect((await storage.get(key))?.size).toBe(2000);
      });
    });
  });
}
