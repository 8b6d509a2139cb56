// Request bodies for upload tests (decision 0120): produced only as they are read, and
// counting what was read, so a test sees whether the server took in an upload or
// left it on the wire.

export interface MeteredBody {
  request: Request;
  /** Bytes the reader has pulled so far. */
  meter: { pulled: number };
  /** Bytes the whole body holds. */
  total: number;
}

export function meteredBody(
  parts: readonly Uint8Array[],
  options: {
    contentType: string;
    /** Send Content-Length (true) or leave the length undeclared, as a chunked body. */
    declare?: boolean;
    /** Claim this Content-Length instead of the real one. */
    declaredLength?: number;
    chunkBytes?: number;
    url?: string;
    headers?: Headers;
  },
): MeteredBody {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const meter = { pulled: 0 };
  let partIndex = 0;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const part = parts[partIndex];
        if (!part) return controller.close();
        const slice = part.subarray(offset, offset + chunkBytes);
        offset += slice.byteLength;
        if (offset >= part.byteLength) {
          partIndex++;
          offset = 0;
        }
        meter.pulled += slice.byteLength;
        controller.enqueue(slice);
      },
    },
    // Nothing is read ahead of the reader.
    { highWaterMark: 0 },
  );
  const headers = new Headers(options.headers);
  headers.set("Content-Type", options.contentType);
  if (options.declaredLength !== undefined) headers.set("Content-Length", String(options.declaredLength));
  else if (options.declare) headers.set("Content-Length", String(total));
  const request = new Request(options.url ?? "http://localhost/create/post", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
  return { request, meter, total };
}

/** A multipart body built by hand, fields first, so its size is known without holding a large file twice. */
export function multipartParts(
  boundary: string,
  fields: Record<string, string>,
  files: { name: string; filename: string; bytes: Uint8Array; type?: string }[],
): Uint8Array[] {
  const enc = (text: string) => new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (const [name, value] of Object.entries(fields)) {
    out.push(enc(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    out.push(
      enc(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      file.bytes,
      enc("\r\n"),
    );
  }
  out.push(enc(`--${boundary}--\r\n`));
  return out;
}
