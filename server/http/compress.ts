import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";

/**
 * Whole bodies compressed in one call: for answers the server has complete before it
 * sends them (a cached page, a list page). The `compression` middleware in main.js
 * streams through zlib instead, which costs a small answer more than the compressing
 * itself (bench/README.md); it leaves alone an answer that already has an encoding.
 */

export type BodyEncoding = "br" | "gzip";

/** Brotli, else gzip, else none: what the client accepts (q=0 refuses). */
export function preferredEncoding(header: string | undefined): BodyEncoding | null {
  const accepted = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) continue;
    accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/** `body` compressed; brotli's quality trades time for size (3 for an answer sent once, 5 for one sent many times). */
export function compressBody(body: Buffer, encoding: BodyEncoding, brotliQuality = 3): Buffer {
  return encoding === "br"
    ? brotliCompressSync(body, {
        // The whole body is at hand: told its size, brotli sizes its buffers to it.
        params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipSync(body);
}
