import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writePrecompressedAssets } from "./precompressed-assets";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cbs-precompress-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Text that compresses, as a bundle does. */
function script(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const value${i} = "item ${i}";`).join("\n");
}

describe("writePrecompressedAssets (the build's step, decision 0430)", () => {
  it("writes brotli and gzip copies beside each text file that decompress to the original", async () => {
    writeFileSync(path.join(dir, "entry.client-Ab12.js"), script(400));
    writeFileSync(path.join(dir, "shell-Cd34.css"), `.card{margin:0}\n`.repeat(200));
    const written = await writePrecompressedAssets(dir, ["entry.client-Ab12.js", "shell-Cd34.css"]);
    expect(written).toEqual(["entry.client-Ab12.js", "shell-Cd34.css"]);
    for (const file of written) {
      const original = readFileSync(path.join(dir, file));
      const br = readFileSync(path.join(dir, `${file}.br`));
      const gz = readFileSync(path.join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(original), file).toBe(true);
      expect(gunzipSync(gz).equals(original), file).toBe(true);
      expect(br.length, file).toBeLessThan(gz.length);
    }
  });

  it("leaves alone files too small to gain, images, and files the bundle does not name", async () => {
    writeFileSync(path.join(dir, "tiny-Ef56.js"), "export {};");
    writeFileSync(path.join(dir, "photo-Gh78.png"), Buffer.alloc(4096, 7));
    writeFileSync(path.join(dir, "other-Ij90.js"), script(400));
    expect(await writePrecompressedAssets(dir, ["tiny-Ef56.js", "photo-Gh78.png"])).toEqual([]);
    for (const file of ["tiny-Ef56.js", "photo-Gh78.png", "other-Ij90.js"]) {
      expect(existsSync(path.join(dir, `${file}.br`)), file).toBe(false);
      expect(existsSync(path.join(dir, `${file}.gz`)), file).toBe(false);
    }
  });
});
