import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, link, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { crc32 } from "node:zlib";
import yauzl from "yauzl";
import yazl from "yazl";
import {
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  DATA_PREFIX,
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  manifestSchema,
} from "./manifest";

/**
 * Decision 0580: one ZIP file per backup (yazl writes, yauzl reads): `data/…` mirrors DATA_DIR,
 * `manifest.json` comes last. Reading checks every entry's CRC-32 and size before anything is
 * written anywhere, as yauzl itself checks no CRC.
 */

/** A refusal the commands explain to the operator in these words (exit 1, nothing changed). */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusedError";
  }
}

/** Writes `snapshotDir/data` and the manifest into `outFile`; refuses an existing file. Returns its size. */
export async function writeBackupArchive(options: {
  snapshotDir: string;
  manifest: Omit<BackupManifest, "entries" | "bytes">;
  outFile: string;
}): Promise<{ bytes: number }> {
  const zip = new yazl.ZipFile();
  // A file that cannot be read is reported on the ZipFile itself: it ends the output with that error.
  zip.on("error", (error: Error) => (zip.outputStream as Readable).destroy(error));
  let entries = 0;
  let bytes = 0;
  const walk = async (dir: string, relative: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      const name = `${relative}${entry.name}`;
      if (entry.isDirectory()) {
        // PostgreSQL needs its empty folders (pg_tblspc, pg_snapshots…): every folder is an entry.
        zip.addEmptyDirectory(`${name}/`);
        entries++;
        await walk(full, `${name}/`);
      } else if (entry.isFile()) {
        const size = (await stat(full)).size;
        // The database's pages compress well; photos and videos are compressed already.
        zip.addFile(full, name, { compress: name.startsWith(`${DATA_PREFIX}db/`) });
        entries++;
        bytes += size;
      }
    }
  };
  await walk(path.join(options.snapshotDir, "data"), DATA_PREFIX);
  const manifest: BackupManifest = { ...options.manifest, entries, bytes };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_NAME);
  zip.end();

  const partial = `${options.outFile}.${randomBytes(6).toString("hex")}.partial`;
  try {
    await pipeline(zip.outputStream, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    // A link, unlike a rename, never replaces a file that appeared meanwhile.
    await link(partial, options.outFile).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") throw new BackupRefusedError(`${options.outFile} exists already.`);
      await rename(partial, options.outFile);
    });
  } finally {
    await rm(partial, { force: true });
  }
  return { bytes: (await stat(options.outFile)).size };
}

/** An entry's name as it will land under the target folder, or a refusal: no absolute path, no `..`. */
function dataPathOf(fileName: string): { relative: string; directory: boolean } {
  const directory = fileName.endsWith("/");
  const relative = fileName.slice(DATA_PREFIX.length, directory ? -1 : undefined);
  const parts = relative.split("/");
  if (
    !fileName.startsWith(DATA_PREFIX) ||
    relative === "" ||
    parts.some(
      (part) => part === "" || part === "." || part === ".." || part.includes("\\") || part.includes("\0"),
    )
  ) {
    throw new BackupRefusedError(
      `the archive holds an unexpected entry (${JSON.stringify(fileName.slice(0, 200))}).`,
    );
  }
  return { relative, directory };
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > limit) throw new BackupRefusedError("the archive's manifest is too large to be ours.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Streams an entry through its CRC-32 and size check, into `sink` when given. */
async function checkedCopy(stream: Readable, entry: yauzl.Entry, sink: Writable | null): Promise<void> {
  let crc = 0;
  let size = 0;
  async function* checked(source: Readable) {
    for await (const chunk of source) {
      crc = crc32(chunk as Buffer, crc);
      size += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (crc !== entry.crc32 || size !== entry.uncompressedSize) {
      throw new BackupRefusedError(`the archive is damaged (${entry.fileName} does not match its checksum).`);
    }
  }
  const discard = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  await pipeline(stream, checked, sink ?? discard);
}

async function openArchive(file: string): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.openPromise(file, {
      lazyEntries: true,
      strictFileNames: true,
      validateEntrySizes: true,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupRefusedError(`${file} does not exist.`);
    throw new BackupRefusedError(
      `${file} is not a backup archive, or is damaged (${(error as Error).message}).`,
    );
  }
}

/**
 * Reads the whole archive and checks it: names, every entry's checksum, the manifest and its
 * format version, the count of entries. Writes nothing; returns the manifest.
 */
export async function verifyBackupArchive(file: string): Promise<BackupManifest> {
  const zip = await openArchive(file);
  let manifestText: Buffer | null = null;
  let entries = 0;
  let bytes = 0;
  const seen = new Set<string>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (seen.has(entry.fileName))
        throw new BackupRefusedError(`the archive holds ${entry.fileName} twice.`);
      seen.add(entry.fileName);
      if (entry.fileName === MANIFEST_NAME) {
        manifestText = await readAll(await zip.openReadStreamPromise(entry), MANIFEST_MAX_BYTES);
        if (crc32(manifestText) !== entry.crc32)
          throw new BackupRefusedError("the archive's manifest is damaged.");
        continue;
      }
      const { directory } = dataPathOf(entry.fileName);
      entries++;
      if (directory) continue;
      bytes += entry.uncompressedSize;
      await checkedCopy(await zip.openReadStreamPromise(entry), entry, null);
    }
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    throw new BackupRefusedError(`the archive is damaged (${(error as Error).message}).`);
  } finally {
    zip.close();
  }
  if (!manifestText)
    throw new BackupRefusedError("the archive has no manifest: it is not a backup of this app.");
  const manifest = parseManifest(manifestText);
  if (manifest.entries !== entries || manifest.bytes !== bytes) {
    throw new BackupRefusedError(
      `the archive is incomplete (${entries} of ${manifest.entries} entries, ${bytes} of ${manifest.bytes} bytes).`,
    );
  }
  return manifest;
}

function parseManifest(text: Buffer): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text.toString("utf8"));
  } catch {
    throw new BackupRefusedError("the archive's manifest is not JSON.");
  }
  const version = (value as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === "number" && version !== BACKUP_FORMAT_VERSION) {
    throw new BackupRefusedError(
      `the archive is in backup format ${version}; this version of the app reads format ${BACKUP_FORMAT_VERSION} only.`,
    );
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) throw new BackupRefusedError("the archive's manifest is not one this app writes.");
  return parsed.data;
}

/**
 * Writes the archive's `data/` into `targetDir` (which must exist), checking each entry again as it
 * goes. Files are readable by the owner only, as DATA_DIR's own secrets are.
 */
export async function extractBackupArchive(file: string, targetDir: string): Promise<void> {
  const zip = await openArchive(file);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName === MANIFEST_NAME) continue;
      const { relative, directory } = dataPathOf(entry.fileName);
      const destination = path.join(targetDir, ...relative.split("/"));
      if (directory) {
        await mkdir(destination, { recursive: true, mode: 0o700 });
        continue;
      }
      await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
      const sink = createWriteStream(destination, { flags: "wx", mode: 0o600 });
      await checkedCopy(await zip.openReadStreamPromise(entry), entry, sink);
      await chmod(destination, 0o600);
    }
  } finally {
    zip.close();
  }
}

/** Empties a folder this process filled (a failed restore), leaving the folder itself. */
export async function emptyFolder(dir: string, except: ReadonlySet<string> = new Set()): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    if (except.has(entry)) continue;
    await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}
