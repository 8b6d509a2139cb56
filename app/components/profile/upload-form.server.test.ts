import { describe, expect, it } from "vitest";
import { readUploadForm } from "./upload-form.server";

function multipart(bytes: number): Request {
  const form = new FormData();
  form.set("intent", "upload-photo");
  form.set("photo", new File([new Uint8Array(bytes)], "me.png", { type: "image/png" }));
  return new Request("http://localhost/profile/set-up", { method: "POST", body: form });
}

/** A body sent in chunks without Content-Length, as a client may. */
function chunked(totalBytes: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(64 * 1024, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return new Request("http://localhost/profile/set-up", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    duplex: "half",
  } as RequestInit);
}

describe("readUploadForm", () => {
  it("parses a multipart form with its file under the cap", async () => {
    const form = await readUploadForm(multipart(1000), 10_000);
    if (form === "too-large") throw new Error("refused");
    expect(form.get("intent")).toBe("upload-photo");
    const file = form.get("photo");
    expect(file instanceof File && file.size).toBe(1000);
  });

  it("refuses a body whose declared length is over the cap", async () => {
    expect(await readUploadForm(multipart(20_000), 10_000)).toBe("too-large");
  });

  it("refuses a body without a declared length once it grows over the cap", async () => {
    expect(await readUploadForm(chunked(300 * 1024), 200 * 1024)).toBe("too-large");
    const small = await readUploadForm(chunked(100), 200 * 1024);
    expect(small).not.toBe("too-large");
  });

  it("reads url-encoded forms too", async () => {
    const request = new Request("http://localhost/", {
      method: "POST",
      body: new URLSearchParams({ intent: "save-bio", bio: "Hello\r\nthere" }),
    });
    const form = await readUploadForm(request, 10_000);
    if (form === "too-large") throw new Error("refused");
    expect(form.get("bio")).toBe("Hello\r\nthere");
  });
});
