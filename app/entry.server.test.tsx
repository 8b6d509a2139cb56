import { describe, expect, it } from "vitest";
import { documentBytes } from "./entry.server";

const encoder = new TextEncoder();

describe("documentBytes", () => {
  it("joins React's strings and byte views in order, each string as UTF-8", () => {
    const chunks = ["<p>café ", encoder.encode("naïve — ✓ "), "😀 done</p>", new Uint8Array(0), ""];
    const bytes = documentBytes(chunks);
    expect(bytes.toString("utf8")).toBe("<p>café naïve — ✓ 😀 done</p>");
    expect(bytes.byteLength).toBe(Buffer.byteLength("<p>café naïve — ✓ 😀 done</p>"));
  });

  it("encodes a lone surrogate (from a student's text) as the browser's encoder does", () => {
    const text = "a\ud800b\udc00c";
    expect(new Uint8Array(documentBytes([text, encoder.encode(text)]))).toEqual(encoder.encode(text + text));
  });

  it("gives an empty body for no chunks", () => {
    expect(documentBytes([]).byteLength).toBe(0);
  });
});
