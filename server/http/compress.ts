import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";

/**
 * Whole bodies compressed in one call: for answers the server has complete before it
 * sends them (a cached page, a list page). The `compression` middleware in main.js
 * streams through zlib instead, which costs a small answer more than the compressing
 * itself (bench/README.md); it leaves alone an answer that already has an encoding.
 */

export type BodyEncoding = "br" | "gzip";

const BY_PREFERENCE: readonly BodyEncoding[] = ["br", "gzip"];
const ALL_ENCODINGS: ReadonlySet<BodyEncoding> = new Set(BY_PREFERENCE);

/**
 * Brotli, else gzip, else none: what the client accepts (q=0 refuses; `*` stands for any it does
 * not name), of the encodings on offer (both, unless only some are at hand).
 */
export function preferredEncoding(
  header: string | undefined,
  offered: ReadonlySet<BodyEncoding> = ALL_ENCODINGS,
): BodyEncoding | null {
  const accepted = new Set<string>();
  const refused = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) refused.add(name.trim());
    else accepted.add(name.trim());
  }
  for (const encoding of BY_PREFERENCE) {
    if (!offered.has(encoding) || refused.has(encoding)) continue;
    if (accepted.has(encoding) || accepted.has("*")) return encoding;
  }
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
