import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meteredBody, multipartParts } from "../../tests/support/request-bodies";
import {
  readLeadingFields,
  readUploadForm,
  sweepUploadTemp,
  type UploadFormLimits,
  type UploadFormResult,
} from "./upload-form";

// Decision 0120: forms with files are read within caps, files streamed to disk.

let tempRoot: string;
beforeAll(async () => {
  tempRoot = path.join(await mkdtemp(path.join(tmpdir(), "cbs-upload-form-")), "uploads");
});
afterAll(async () => {
  await rm(path.dirname(tempRoot), { recursive: true, force: true });
});

const limits = (maxBodyBytes: number, more: Partial<UploadFormLimits> = {}): UploadFormLimits => ({
  maxBodyBytes,
  maxFileBytes: maxBodyBytes,
  maxFieldBytes: maxBodyBytes,
  maxParts: 32,
  ...more,
});

async function foldersLeft(): Promise<string[]> {
  try {
    return await readdir(tempRoot);
  } catch {
    return [];
  }
}

function formOf(result: UploadFormResult): FormData {
  if (result.kind !== "form") throw new Error(`refused: ${result.kind}`);
  return result.form;
}

function multipart(bytes: number): Request {
  const form = new FormData();
  form.set("intent", "upload-photo");
  form.set("photo", new File([new Uint8Array(bytes)], "me.png", { type: "image/png" }));
  return new Request("http://localhost/profile/set-up", { method: "POST", body: form });
}

function multipartWithText(text: string): Request {
  const form = new FormData();
  form.set("text", text);
  form.set("files", new File([new Uint8Array(10)], "x.png", { type: "image/png" }));
  return new Request("http://localhost/create/post", { method: "POST", body: form });
}

/** A body sent in chunks without Content-Length, as a client may. */
function chunked(totalBytes: number) {
  return meteredBody([new Uint8Array(totalBytes).fill(97)], {
    contentType: "application/x-www-form-urlencoded",
  });
}

describe("readUploadForm", () => {
  it("parses a multipart form with its file under the cap", async () => {
    const result = await readUploadForm(multipart(1000), tempRoot, limits(10_000));
    const form = formOf(result);
    expect(form.get("intent")).toBe("upload-photo");
    const file = form.get("photo");
    expect(file instanceof File && file.size).toBe(1000);
    if (result.kind === "form") await result.dispose();
  });

  it("refuses a body whose declared length is over the cap, reading none of it", async () => {
    expect(await readUploadForm(multipart(20_000), tempRoot, limits(10_000))).toEqual({ kind: "too-large" });
    const big = meteredBody([new Uint8Array(50_000)], {
      declare: true,
      contentType: "multipart/form-data; boundary=x",
    });
    expect(await readUploadForm(big.request, tempRoot, limits(10_000))).toEqual({ kind: "too-large" });
    expect(big.meter.pulled).toBe(0);
  });

  it("refuses a body without a declared length once it grows over the cap, and stops reading there", async () => {
    const over = chunked(300 * 1024);
    expect(await readUploadForm(over.request, tempRoot, limits(200 * 1024))).toEqual({ kind: "too-large" });
    // The chunk that crossed the cap, not a byte more.
    expect(over.meter.pulled).toBeLessThanOrEqual(200 * 1024 + 64 * 1024);
    const small = await readUploadForm(chunked(100).request, tempRoot, limits(200 * 1024));
    expect(small.kind).toBe("form");

    const boundary = "b0undary";
    const upload = meteredBody(
      multipartParts(boundary, { enhanced: "1" }, [
        { name: "files", filename: "big.mov", bytes: new Uint8Array(5 * 1024 * 1024) },
      ]),
      { contentType: `multipart/form-data; boundary=${boundary}` },
    );
    const result = await readUploadForm(upload.request, tempRoot, limits(1024 * 1024));
    expect(result).toEqual({ kind: "too-large" });
    expect(upload.meter.pulled).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
    expect(await foldersLeft()).toEqual([]);
  });

  it("refuses one file over the per-file cap, and text fields over theirs", async () => {
    const boundary = "xyz";
    const file = meteredBody(
      multipartParts(boundary, {}, [{ name: "files", filename: "a.mp4", bytes: new Uint8Array(300_000) }]),
      { contentType: `multipart/form-data; boundary=${boundary}` },
    );
    expect(
      await readUploadForm(file.request, tempRoot, limits(1_000_000, { maxFileBytes: 200_000 })),
    ).toEqual({ kind: "too-large" });
    const field = meteredBody(multipartParts(boundary, { text: "x".repeat(5000) }, []), {
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(await readUploadForm(field.request, tempRoot, limits(1_000_000, { maxFieldBytes: 4096 }))).toEqual(
      { kind: "too-large" },
    );
    expect(await foldersLeft()).toEqual([]);
  });

  it("reads url-encoded forms too", async () => {
    const request = new Request("http://localhost/", {
      method: "POST",
      body: new URLSearchParams({ intent: "save-bio", bio: "Hello\r\nthere" }),
    });
    const form = formOf(await readUploadForm(request, tempRoot, limits(10_000)));
    expect(form.get("bio")).toBe("Hello\r\nthere");
  });

  it("keeps files on disk, not in memory, until disposed; then nothing is left", async () => {
    const boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    const video = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const photo = new Uint8Array(1000).fill(9);
    const upload = meteredBody(
      multipartParts(boundary, { enhanced: "1", text: "héllo\r\n--not-a-boundary" }, [
        { name: "files", filename: "clip.mov", bytes: video },
        { name: "files", filename: "désk.png", bytes: photo },
        { name: "files", filename: "", bytes: new Uint8Array(0) },
      ]),
      { contentType: `multipart/form-data; boundary="${boundary}"`, chunkBytes: 7001 },
    );
    const result = await readUploadForm(upload.request, tempRoot, limits(10 * 1024 * 1024));
    if (result.kind !== "form") throw new Error(result.kind);
    expect(upload.meter.pulled).toBe(upload.total);
    expect(result.form.get("enhanced")).toBe("1");
    expect(result.form.get("text")).toBe("héllo\r\n--not-a-boundary");
    const files = result.form.getAll("files").filter((entry) => entry instanceof File);
    expect(files.map((file) => [file.name, file.size])).toEqual([
      ["clip.mov", video.byteLength],
      ["désk.png", 1000],
      ["", 0],
    ]);
    // Compared as buffers: a deep equality over millions of elements takes seconds.
    const [first, second] = files;
    if (!first || !second) throw new Error("files missing");
    expect(Buffer.from(await first.arrayBuffer()).equals(video)).toBe(true);
    expect(new Uint8Array(await second.slice(10, 20).arrayBuffer())).toEqual(photo.subarray(10, 20));
    // One folder for the request, one file per non-empty upload.
    const [folder, ...others] = await foldersLeft();
    expect(others).toEqual([]);
    expect(await readdir(path.join(tempRoot, folder ?? ""))).toHaveLength(2);

    await result.dispose();
    expect(await foldersLeft()).toEqual([]);
  });

  it("answers a broken or foreign body as malformed, leaving nothing behind", async () => {
    const boundary = "b";
    const cases: Request[] = [
      // The closing boundary never comes.
      meteredBody(multipartParts(boundary, { a: "1" }, []).slice(0, 1), {
        contentType: `multipart/form-data; boundary=${boundary}`,
      }).request,
      // A file cut off half-way.
      meteredBody(
        multipartParts(boundary, {}, [{ name: "files", filename: "x", bytes: new Uint8Array(10_000) }]).slice(
          0,
          2,
        ),
        { contentType: `multipart/form-data; boundary=${boundary}` },
      ).request,
      // No boundary in the body at all.
      meteredBody([new Uint8Array(100_000).fill(65)], {
        contentType: `multipart/form-data; boundary=${boundary}`,
      }).request,
      // A part without a name.
      meteredBody([new TextEncoder().encode("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n")], {
        contentType: "multipart/form-data; boundary=b",
      }).request,
      new Request("http://localhost/", {
        method: "POST",
        body: JSON.stringify({ intent: "upload-photo" }),
        headers: { "Content-Type": "application/json" },
      }),
      new Request("http://localhost/", {
        method: "POST",
        body: "x",
        headers: { "Content-Type": "multipart/form-data" },
      }),
      // A NUL character, which no field can hold (docs/product/outages-and-errors.md), in a multipart and a url-encoded form.
      multipartWithText("a\u0000b"),
      new Request("http://localhost/", { method: "POST", body: new URLSearchParams({ bio: "a\u0000b" }) }),
    ];
    for (const request of cases) {
      expect((await readUploadForm(request, tempRoot, limits(1_000_000))).kind).toBe("malformed");
    }
    expect(await foldersLeft()).toEqual([]);
  });
});

describe("readLeadingFields", () => {
  it("reads the fields before the first file and stops there, taking in none of the upload", async () => {
    const boundary = "lead";
    const upload = meteredBody(
      multipartParts(boundary, { enhanced: "1", text: "hello" }, [
        { name: "files", filename: "big.mov", bytes: new Uint8Array(50 * 1024 * 1024) },
      ]),
      { contentType: `multipart/form-data; boundary=${boundary}`, declare: true },
    );
    const form = await readLeadingFields(upload.request, 64 * 1024);
    expect([...form.entries()]).toEqual([
      ["enhanced", "1"],
      ["text", "hello"],
    ]);
    expect(upload.meter.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it("gives the fields seen so far when the client goes away", async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("the client went away"));
        sent = true;
        controller.enqueue(
          new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="enhanced"\r\n\r\n1\r\n--b'),
        );
      },
    });
    const request = new Request("http://localhost/create/post", {
      method: "POST",
      body,
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
      duplex: "half",
    } as RequestInit);
    expect([...(await readLeadingFields(request, 64 * 1024)).entries()]).toEqual([["enhanced", "1"]]);
  });

  it("reads at most its budget of a body that never reaches a file", async () => {
    const upload = meteredBody([new Uint8Array(10 * 1024 * 1024).fill(65)], {
      contentType: "multipart/form-data; boundary=b",
    });
    expect([...(await readLeadingFields(upload.request, 64 * 1024)).entries()]).toEqual([]);
    expect(upload.meter.pulled).toBeLessThanOrEqual(128 * 1024);
  });
});

describe("sweepUploadTemp", () => {
  it("removes request folders older than the given age, and only those", async () => {
    const root = path.join(path.dirname(tempRoot), "sweep");
    const request = await readUploadForm(multipart(10), root, limits(10_000));
    expect(await readdir(root)).toHaveLength(1);
    expect(await sweepUploadTemp(root, 60_000)).toBe(0);
    expect(await sweepUploadTemp(root, 60_000, Date.now() + 120_000)).toBe(1);
    expect(await readdir(root)).toEqual([]);
    if (request.kind === "form") await request.dispose();
  });
});
