import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { BodyEncoding } from "../compress";

/**
 * The built client's files compressed once, at build time, at the best ratio (brotli 11,
 * gzip 9), beside the originals: `entry.client-<hash>.js.br` and `.gz`. A phone on a slow
 * network downloads about 16 % fewer bytes of JavaScript and CSS than the compression
 * middleware's per-request brotli 3 sends, and the server compresses no asset per request
 * (decision 0430). The build's last step (`buildEnd` in react-router.config.ts) writes them;
 * server/http/middleware/static-files.ts serves them.
 */

/** The file beside an asset that holds it in each encoding. */
export const PRECOMPRESSED_SUFFIX: Record<BodyEncoding, string> = { br: ".br", gzip: ".gz" };

/** Text the browser fetches; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|webmanifest|html|txt)$/;

/** Whether the build compresses a file of this name (so only such a name has copies to send). */
export function isPrecompressible(file: string): boolean {
  return COMPRESSIBLE.test(file);
}

/** Below this, the headers outweigh what compressing saves (the compression middleware's own threshold). */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` for each of `files` (relative to `dir`) worth compressing,
 * and returns the files it compressed. An encoding that would not be smaller is not written.
 */
export async function writePrecompressedAssets(dir: string, files: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  await Promise.all(
    files.filter(isPrecompressible).map(async (file) => {
      const original = await readFile(path.join(dir, file));
      if (original.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(original, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: original.length,
          },
        }),
        gzipAsync(original, { level: zlib.Z_BEST_COMPRESSION }),
      ]);
      let any = false;
      for (const [encoding, body] of [
        ["br", br],
        ["gzip", gz],
      ] as const) {
        if (body.length >= original.length) continue;
        await writeFile(path.join(dir, `${file}${PRECOMPRESSED_SUFFIX[encoding]}`), body);
        any = true;
      }
      if (any) written.push(file);
    }),
  );
  return written.sort();
}
