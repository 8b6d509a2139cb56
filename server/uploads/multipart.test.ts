import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MultipartError, MultipartParser, multipartBoundary } from "./multipart";

// The streaming multipart reader (decision 0120): whatever the chunking, the same parts.

interface Parsed {
  name: string;
  filename: string | null;
  contentType: string | null;
  bytes: Buffer;
}

function parse(body: Uint8Array, boundary: string, cuts: number[]): Parsed[] {
  const parser = new MultipartParser(boundary, { maxHeaderBytes: 16 * 1024, maxParts: 100 });
  const parts: Parsed[] = [];
  let current: Parsed | null = null;
  const chunks: Buffer[] = [];
  let start = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < body.byteLength)].sort((a, b) => a - b)) {
    chunks.push(Buffer.from(body.subarray(start, cut)));
    start = cut;
  }
  chunks.push(Buffer.from(body.subarray(start)));
  for (const chunk of chunks) {
    for (const event of parser.write(chunk)) {
      if (event.type === "part") {
        current = {
          name: event.name,
          filename: event.filename,
          contentType: event.contentType,
          bytes: Buffer.alloc(0),
        };
      } else if (event.type === "data" && current) {
        current.bytes = Buffer.concat([current.bytes, event.bytes]);
      } else if (event.type === "part-end" && current) {
        parts.push(current);
        current = null;
      }
    }
  }
  parser.end();
  return parts;
}

/** How the platform (the same encoder as browsers' fetch) writes a form. */
async function encode(form: FormData): Promise<{ body: Uint8Array<ArrayBuffer>; boundary: string }> {
  const response = new Response(form);
  const boundary = multipartBoundary(response.headers.get("Content-Type"));
  if (!boundary) throw new Error("no boundary");
  return { body: new Uint8Array(await response.arrayBuffer()), boundary };
}

describe("MultipartParser", () => {
  it("reads every form the platform writes, however the body is cut into chunks", async () => {
    const entry = fc.oneof(
      fc.record({
        kind: fc.constant("field" as const),
        name: fc.string({ minLength: 1, unit: "grapheme" }),
        value: fc.string({ unit: "grapheme" }),
      }),
      fc.record({
        kind: fc.constant("file" as const),
        name: fc.string({ minLength: 1, unit: "grapheme" }),
        filename: fc.string({ unit: "grapheme" }),
        bytes: fc.uint8Array({ maxLength: 3000 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 6 }),
        fc.array(fc.nat(20_000), { maxLength: 12 }),
        async (entries, cuts) => {
          const form = new FormData();
          for (const e of entries) {
            if (e.kind === "field") form.append(e.name, e.value);
            else form.append(e.name, new File([e.bytes], e.filename, { type: "application/octet-stream" }));
          }
          const { body, boundary } = await encode(form);
          const parsed = parse(body, boundary, cuts);
          expect(parsed).toHaveLength(entries.length);
          // Compared with what the platform's own parser reads back from the same bytes.
          const expected = [
            ...(
              await new Response(body, {
                headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
              }).formData()
            ).entries(),
          ];
          for (const [i, part] of parsed.entries()) {
            const [name, value] = expected[i] ?? [];
            expect(part.name).toBe(name);
            if (typeof value === "string") {
              expect(part.filename).toBeNull();
              expect(part.bytes.toString("utf-8")).toBe(value);
            } else if (value) {
              expect(part.filename).toBe(value.name);
              expect(part.bytes.equals(Buffer.from(await value.arrayBuffer()))).toBe(true);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("finds a delimiter split across chunks one byte at a time, and body bytes that only look like one", () => {
    const body = Buffer.from(
      'preamble\r\n--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n--x\r\n--xy\r\n--xx\r\n' +
        'Content-Disposition: form-data; name="f"; filename="a %22b%22.txt"\r\nContent-Type: text/plain\r\n\r\n' +
        "data\r\n--xx--\r\nepilogue",
    );
    const everyByte = Array.from({ length: body.byteLength }, (_, i) => i);
    for (const cuts of [[], everyByte]) {
      expect(parse(body, "xx", cuts)).toEqual([
        { name: "a", filename: null, contentType: null, bytes: Buffer.from("\r\n--x\r\n--xy") },
        { name: "f", filename: 'a "b".txt', contentType: "text/plain", bytes: Buffer.from("data") },
      ]);
    }
  });

  it("refuses what is not a well-formed form, within its bounds", () => {
    const limits = { maxHeaderBytes: 1024, maxParts: 2 };
    const broken = [
      // No closing delimiter.
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx',
      // No Content-Disposition, or not form-data, or no name.
      "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--",
      '--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b--',
      "--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--",
      "--b\r\n\r\nx\r\n--b--",
      // Garbage after a delimiter.
      '--bzz\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b--',
      // Headers longer than allowed; a preamble without a boundary.
      `--b\r\nContent-Disposition: form-data; name="${"a".repeat(2000)}"\r\n\r\nx\r\n--b--`,
      "x".repeat(5000),
      // More parts than allowed.
      `${'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n'.repeat(3)}--b--`,
    ];
    for (const text of broken) {
      const parser = new MultipartParser("b", limits);
      expect(
        () => {
          parser.write(Buffer.from(text));
          parser.end();
        },
        text.slice(0, 60),
      ).toThrow(MultipartError);
    }
  });

  it("takes the boundary from the Content-Type only of multipart/form-data", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe("a b;c");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeNull();
    expect(multipartBoundary("multipart/mixed; boundary=abc")).toBeNull();
    expect(multipartBoundary("application/json")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
  });
});
