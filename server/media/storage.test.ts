import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertValidKey, createDiskStorage, createMemoryStorage } from "./storage";

const dir = mkdtempSync(path.join(tmpdir(), "cbs-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("disk storage", () => {
  it("creates folders, writes, serves a URL for the key, and deletes", async () => {
    const storage = createDiskStorage(path.join(dir, "media"));
    const key = "images/profilePics/user1/abc-480.webp";
    await storage.put(key, new Uint8Array([1, 2, 3]), "image/webp");
    const file = path.join(dir, "media", "images", "profilePics", "user1", "abc-480.webp");
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    // Written aside and renamed: no partial file is left behind.
    expect(readdirSync(path.dirname(file))).toEqual(["abc-480.webp"]);

    expect(storage.url(key)).toBe("/media-files/images/profilePics/user1/abc-480.webp");
    expect(storage.keyOf(storage.url(key))).toBe(key);
    expect(storage.keyOf("https://elsewhere.example/a.png")).toBeNull();
    expect(storage.keyOf("/media-files/../secret")).toBeNull();

    await storage.delete(key);
    expect(existsSync(file)).toBe(false);
    // Deleting what is not there is not an error.
    await storage.delete(key);
  });

  it("writes a stream a chunk at a time, and leaves nothing when the stream fails", async () => {
    const storage = createDiskStorage(path.join(dir, "media"));
    const key = "images/posts/p1/1-abc.mp4";
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    await storage.putStream(key, new Blob(chunks).stream(), "video/mp4");
    const file = path.join(dir, "media", "images", "posts", "p1", "1-abc.mp4");
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);

    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 0) controller.error(new Error("the upload broke off"));
        else controller.enqueue(new Uint8Array([7]));
      },
    });
    await expect(storage.putStream("images/posts/p1/2-def.mp4", failing, "video/mp4")).rejects.toThrow(
      "the upload broke off",
    );
    expect(readdirSync(path.dirname(file))).toEqual(["1-abc.mp4"]);
    await expect(storage.putStream("../x.mp4", new Blob([]).stream(), "video/mp4")).rejects.toThrow();
  });

  it("refuses keys that could leave its folder", async () => {
    const storage = createDiskStorage(path.join(dir, "media"));
    for (const key of ["../outside.webp", "/etc/passwd", "a/../../b", "a//b", ".hidden", "a/.b", ""]) {
      expect(() => assertValidKey(key)).toThrow();
      await expect(storage.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow();
    }
  });
});

describe("memory storage", () => {
  it("keeps objects for tests to inspect", async () => {
    const storage = createMemoryStorage();
    await storage.put("a/b.webp", new Uint8Array([9]), "image/webp");
    expect(storage.objects.get("a/b.webp")).toEqual({
      bytes: new Uint8Array([9]),
      contentType: "image/webp",
    });
    await storage.delete("a/b.webp");
    expect(storage.objects.size).toBe(0);
    await storage.putStream(
      "a/c.mp4",
      new Blob([new Uint8Array([1]), new Uint8Array([2])]).stream(),
      "video/mp4",
    );
    expect(storage.objects.get("a/c.mp4")).toEqual({
      bytes: new Uint8Array([1, 2]),
      contentType: "video/mp4",
    });
  });
});
