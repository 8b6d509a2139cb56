import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeMediaStorageContract } from "../../tests/support/media-storage-contract";
import { contentTypeOfKey, createDiskStorage, createMemoryStorage } from "./storage";

const dir = mkdtempSync(path.join(tmpdir(), "cbs-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The same contract as the bucket (server/media/s3-storage.test.ts; decision 0292).
describeMediaStorageContract("disk storage", async () => ({
  storage: createDiskStorage(path.join(dir, "media")),
}));
describeMediaStorageContract("memory storage", async () => ({ storage: createMemoryStorage() }));

describe("disk storage on disk", () => {
  it("keeps a key's file under its folder, written aside and renamed, and none for a failed stream", async () => {
    const storage = createDiskStorage(path.join(dir, "own"));
    const key = "images/profilePics/user1/abc-480.webp";
    await storage.put(key, new Uint8Array([1, 2, 3]), "image/webp");
    const file = path.join(dir, "own", "images", "profilePics", "user1", "abc-480.webp");
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    // No partial file is left behind.
    expect(readdirSync(path.dirname(file))).toEqual(["abc-480.webp"]);

    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("the upload broke off"));
      },
    });
    await expect(storage.putStream("images/profilePics/user1/b.mp4", failing, "video/mp4")).rejects.toThrow();
    expect(readdirSync(path.dirname(file))).toEqual(["abc-480.webp"]);
  });

  it("serves a file with the type its extension names", () => {
    expect(contentTypeOfKey("a/b-480.webp")).toBe("image/webp");
    expect(contentTypeOfKey("a/b.jpg")).toBe("image/jpeg");
    expect(contentTypeOfKey("a/b.mov")).toBe("video/quicktime");
    expect(contentTypeOfKey("a/b.html")).toBe("application/octet-stream");
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
  });
});
