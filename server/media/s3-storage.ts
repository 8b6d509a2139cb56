import { AwsClient } from "aws4fetch";
import {
  assertValidKey,
  type ByteRange,
  keyFromUrl,
  MEDIA_URL_PREFIX,
  type MediaStorage,
  RangeNotSatisfiable,
  type StoredObject,
} from "./storage";

/**
 * Media in an S3-compatible bucket (decision 0292): several processes or machines
 * share the uploads. Requests are signed with AWS Signature V4 by aws4fetch (no SDK). The URLs
 * stay the app's own (`/media-files/{key}`): the app streams objects from the bucket
 * (server/http/endpoints/media-files.ts), so the pages, their Content-Security-Policy and the year-long
 * browser cache are the same as with local disk.
 */
export interface S3Settings {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `{endpoint}/{bucket}/{key}` rather than `{bucket}.{endpoint host}/{key}`. */
  forcePathStyle: boolean;
}

/**
 * Bytes one upload part holds (S3's minimum is 5 MiB, except the last part). A streamed video
 * is sent a part at a time, so at most one part of it is in memory (decision 0121).
 */
export const S3_PART_BYTES = 8 * 1024 * 1024;

export interface S3Storage extends MediaStorage {
  readonly bucket: string;
}

class S3Error extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    detail: string,
  ) {
    super(`S3 ${operation} failed with HTTP ${status}: ${detail.slice(0, 300)}`);
    this.name = "S3Error";
  }
}

function xmlValue(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return match?.[1] ?? null;
}

function rangeHeader(range: ByteRange): string {
  if ("suffix" in range) return `bytes=-${range.suffix}`;
  return `bytes=${range.start}-${range.end ?? ""}`;
}

/**
 * Cuts a stream into parts of S3_PART_BYTES (the last one shorter, possibly empty), one
 * reader per upload.
 */
function partsOf(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  let pending: Uint8Array | null = null;
  return {
    async next(): Promise<Uint8Array> {
      const part = new Uint8Array(S3_PART_BYTES);
      let filled = 0;
      while (filled < S3_PART_BYTES) {
        let chunk = pending;
        pending = null;
        if (!chunk) {
          const read = await reader.read();
          if (read.done) break;
          chunk = read.value;
        }
        const take = Math.min(chunk.length, S3_PART_BYTES - filled);
        part.set(chunk.subarray(0, take), filled);
        filled += take;
        if (take < chunk.length) pending = chunk.subarray(take);
      }
      return part.subarray(0, filled);
    },
    cancel: (reason: unknown) => reader.cancel(reason).catch(() => {}),
  };
}

type Parts = ReturnType<typeof partsOf>;

export function createS3Storage(settings: S3Settings, urlPrefix = MEDIA_URL_PREFIX): S3Storage {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: "s3",
    // aws4fetch retries 5xx and 429 answers; a few tries, not its default ten.
    retries: 3,
  });
  const endpoint = new URL(settings.endpoint);
  const base = settings.forcePathStyle
    ? `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, "")}/${settings.bucket}`
    : `${endpoint.protocol}//${settings.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/+$/, "")}`;
  const objectUrl = (key: string, query = "") => {
    assertValidKey(key);
    // Keys are letters, digits, `_`, `-`, `.` and `/` (assertValidKey): nothing to escape.
    return `${base}/${key}${query}`;
  };

  async function expectOk(response: Response, operation: string): Promise<Response> {
    if (response.ok) return response;
    const detail = await response.text().catch(() => "");
    throw new S3Error(operation, response.status, detail);
  }

  async function putBytes(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const response = await client.fetch(objectUrl(key), {
      method: "PUT",
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { "Content-Type": contentType, "Content-Length": String(bytes.length) },
    });
    await expectOk(response, "PutObject");
    await response.body?.cancel();
  }

  /** S3's multipart upload: one part in memory at a time; aborted (the parts deleted) on any failure. */
  async function putParts(key: string, first: Uint8Array, rest: Parts, contentType: string): Promise<void> {
    const created = await expectOk(
      await client.fetch(objectUrl(key, "?uploads"), {
        method: "POST",
        headers: { "Content-Type": contentType },
      }),
      "CreateMultipartUpload",
    );
    const uploadId = xmlValue(await created.text(), "UploadId");
    if (!uploadId) throw new S3Error("CreateMultipartUpload", created.status, "no UploadId in the answer");
    const query = (extra: string) => `?${extra}uploadId=${encodeURIComponent(uploadId)}`;
    const etags: string[] = [];
    try {
      const sendPart = async (bytes: Uint8Array) => {
        const number = etags.length + 1;
        const response = await expectOk(
          await client.fetch(objectUrl(key, query(`partNumber=${number}&`)), {
            method: "PUT",
            body: bytes as Uint8Array<ArrayBuffer>,
            headers: { "Content-Length": String(bytes.length) },
          }),
          "UploadPart",
        );
        await response.body?.cancel();
        const etag = response.headers.get("etag");
        if (!etag) throw new S3Error("UploadPart", response.status, "no ETag in the answer");
        etags.push(etag);
      };
      await sendPart(first);
      for (;;) {
        const part = await rest.next();
        if (part.length > 0) await sendPart(part);
        if (part.length < S3_PART_BYTES) break;
      }
      const parts = etags
        .map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
        .join("");
      const completed = await expectOk(
        await client.fetch(objectUrl(key, query("")), {
          method: "POST",
          body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
          headers: { "Content-Type": "application/xml" },
        }),
        "CompleteMultipartUpload",
      );
      // S3 may answer 200 and report the failure in the body.
      const answer = await completed.text();
      if (answer.includes("<Error>")) throw new S3Error("CompleteMultipartUpload", 200, answer);
    } catch (error) {
      await client
        .fetch(objectUrl(key, query("")), { method: "DELETE" })
        .then((response) => response.body?.cancel())
        .catch(() => {});
      throw error;
    }
  }

  async function head(key: string): Promise<number | null> {
    const response = await client.fetch(objectUrl(key), { method: "HEAD" });
    if (response.status === 404) return null;
    await expectOk(response, "HeadObject");
    return Number(response.headers.get("content-length") ?? "0");
  }

  return {
    bucket: settings.bucket,
    put: putBytes,
    async putStream(key, body, contentType) {
      objectUrl(key);
      const parts = partsOf(body);
      try {
        const first = await parts.next();
        // Small enough for one request; otherwise part by part.
        if (first.length < S3_PART_BYTES) await putBytes(key, first, contentType);
        else await putParts(key, first, parts, contentType);
      } catch (error) {
        await parts.cancel(error);
        throw error;
      }
    },
    async get(key, range): Promise<StoredObject | null> {
      let asked = range;
      if (asked && "suffix" in asked) {
        // Not every S3-compatible server reads `bytes=-n`: ask for the size, then a plain range.
        const size = await head(key);
        if (size === null) return null;
        if (asked.suffix <= 0 || size === 0) throw new RangeNotSatisfiable(size);
        asked = { start: Math.max(0, size - asked.suffix), end: size - 1 };
      }
      const response = await client.fetch(objectUrl(key), {
        headers: asked ? { Range: rangeHeader(asked) } : {},
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (response.status === 416) {
        const answer = await response.text().catch(() => "");
        const size =
          Number(response.headers.get("content-range")?.split("/")[1] ?? Number.NaN) ||
          Number(xmlValue(answer, "ActualObjectSize") ?? Number.NaN) ||
          ((await head(key)) ?? 0);
        throw new RangeNotSatisfiable(size);
      }
      await expectOk(response, "GetObject");
      if (!response.body) throw new S3Error("GetObject", response.status, "no body");
      const contentRange = response.status === 206 ? response.headers.get("content-range") : null;
      const parsed = contentRange ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange) : null;
      const length = Number(response.headers.get("content-length") ?? "0");
      return {
        body: response.body,
        contentType: response.headers.get("content-type") ?? "application/octet-stream",
        size: parsed ? Number(parsed[3]) : length,
        range: parsed ? { start: Number(parsed[1]), end: Number(parsed[2]) } : null,
        etag: response.headers.get("etag"),
      };
    },
    async delete(key) {
      const response = await client.fetch(objectUrl(key), { method: "DELETE" });
      // S3 answers 204 whether or not the object was there.
      if (response.status !== 404) await expectOk(response, "DeleteObject");
      await response.body?.cancel();
    },
    url: (key) => {
      assertValidKey(key);
      return `${urlPrefix}/${key}`;
    },
    keyOf: (url) => keyFromUrl(url, urlPrefix),
  };
}
