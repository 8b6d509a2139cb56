import { createReadStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { AppContext } from "../context";

/**
 * Decision 0570: the archives live on the app's disk, in DATA_DIR/exports, never in the media
 * store (whose files are public by their address). `data_exports.file` holds the name only.
 */
export function exportsDir(ctx: Pick<AppContext, "config">): string {
  return path.join(ctx.config.dataDir, "exports");
}

/** The archive's path from the name the row keeps; null for anything that is not a plain name. */
export function exportPath(ctx: Pick<AppContext, "config">, file: string): string | null {
  if (!/^[0-9a-f-]{36}\.zip$/.test(file)) return null;
  return path.join(exportsDir(ctx), file);
}

export async function ensureExportsDir(ctx: Pick<AppContext, "config">): Promise<string> {
  const dir = exportsDir(ctx);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Removes archives, best effort: a file left behind is logged (the job's next round tries nothing more). */
export async function removeExportFiles(ctx: Pick<AppContext, "config" | "log">, files: readonly string[]) {
  for (const file of files) {
    const full = exportPath(ctx, file);
    if (!full) continue;
    try {
      await rm(full, { force: true });
    } catch (error) {
      ctx.log.error({ err: error, file }, "an expired data archive could not be removed");
    }
  }
}

/** An archive's bytes as a web stream, for the download's answer. */
export function archiveStream(full: string): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(full)) as unknown as ReadableStream<Uint8Array>;
}
