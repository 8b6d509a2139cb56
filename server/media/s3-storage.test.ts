import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { describe, expect, it } from "vitest";
import { describeMediaStorageContract } from "../../tests/support/media-storage-contract";
import { parseS3Settings } from "../config";
import { createS3Storage } from "./s3-storage";

// Decision 0292: the bucket passes the same contract as local disk, against a local
// S3-compatible server (s3rver) started here, with signed requests (its default keys).
describeMediaStorageContract("S3 bucket", async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "cbs-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: "media" }],
  });
  const { port } = await server.run();
  const settings = parseS3Settings({
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: "media",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
  });
  if (!settings) throw new Error("expected S3 settings");
  return {
    storage: createS3Storage(settings),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describe("S3 bucket requests", () => {
  it("are signed with the configured key: a key the server does not know is refused", async () => {
    // s3rver checks the access key of a Signature V4 request, not the signature itself.
    const directory = mkdtempSync(path.join(tmpdir(), "cbs-s3rver-"));
    const server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: "media" }],
    });
    const { port } = await server.run();
    try {
      const storage = createS3Storage({
        endpoint: `http://127.0.0.1:${port}`,
        bucket: "media",
        accessKeyId: "SOMEONE-ELSE",
        secretAccessKey: "S3RVER",
        region: "us-east-1",
        forcePathStyle: true,
      });
      await expect(storage.put("a/b.webp", new Uint8Array([1]), "image/webp")).rejects.toThrow(/HTTP 403/);
    } finally {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe("S3 settings (S3_* variables)", () => {
  it("are off without S3_BUCKET, and refuse keys or an endpoint without it", () => {
    expect(parseS3Settings({})).toBeNull();
    expect(() => parseS3Settings({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/without S3_BUCKET/);
  });

  it("need both keys, default to AWS in us-east-1 with virtual-host addresses, and path style for another endpoint", () => {
    expect(() => parseS3Settings({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(parseS3Settings({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" })).toEqual({
      endpoint: "https://s3.us-east-1.amazonaws.com",
      bucket: "b",
      accessKeyId: "k",
      secretAccessKey: "s",
      region: "us-east-1",
      forcePathStyle: false,
    });
    const minio = parseS3Settings({
      S3_ENDPOINT: "http://minio:9000",
      S3_BUCKET: "b",
      S3_ACCESS_KEY_ID: "k",
      S3_SECRET_ACCESS_KEY: "s",
      S3_REGION: "eu-west-1",
    });
    expect(minio?.forcePathStyle).toBe(true);
    expect(minio?.region).toBe("eu-west-1");
    expect(
      parseS3Settings({
        S3_ENDPOINT: "https://r2.example",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
        S3_FORCE_PATH_STYLE: "0",
      })?.forcePathStyle,
    ).toBe(false);
    expect(() =>
      parseS3Settings({
        S3_ENDPOINT: "ftp://x",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
      }),
    ).toThrow(/S3_ENDPOINT/);
  });
});
