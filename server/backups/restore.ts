import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "../db/client";
import { lockEmbeddedDatabase } from "../db/embedded-lock";
import { BackupRefusedError, emptyFolder, extractBackupArchive, verifyBackupArchive } from "./archive";
import { type BackupManifest, knownMigrationLevel, readMigrationLevel } from "./manifest";

/**
 * Decision 0580: a backup archive back into an empty DATA_DIR. Everything is checked before the
 * first byte is written (the archive whole, its format, its migrations not newer than this code's);
 * the files land in a staging folder inside DATA_DIR, the database is opened there once (PostgreSQL
 * replays what the snapshot's WAL holds and must find what the manifest says), and only then are
 * the folder's entries moved into place, the database last. On any failure DATA_DIR is emptied
 * again. DATA_DIR/db.lock is held throughout, so a server started meanwhile refuses to open it.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  migrationsFolder: string;
}): Promise<BackupManifest> {
  const { dataDir } = options;
  await refuseNonEmpty(dataDir, new Set());
  const manifest = await verifyBackupArchive(options.file);
  const known = knownMigrationLevel(options.migrationsFolder);
  if (manifest.migrations.latest > known.latest) {
    throw new BackupRefusedError(
      `the backup was made by a newer version of the app (${manifest.migrations.applied} migrations, ` +
        `this one knows ${known.applied}): restore it with that version or a later one.`,
    );
  }

  const created = !(await stat(dataDir).catch(() => null));
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const unlock = lockEmbeddedDatabase(path.join(dataDir, "db.lock"));
  try {
    // A server or another restore may have written here between the first look and the lock.
    await refuseNonEmpty(dataDir, new Set(["db.lock"]));
  } catch (error) {
    unlock();
    throw error;
  }
  const staging = path.join(dataDir, `.restore-${randomBytes(6).toString("hex")}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await extractBackupArchive(options.file, staging);
    await checkDatabase(path.join(staging, "db"), manifest);
    const entries = (await readdir(staging)).sort((a, b) => Number(a === "db") - Number(b === "db"));
    for (const entry of entries) await rename(path.join(staging, entry), path.join(dataDir, entry));
    await rmdir(staging);
  } catch (error) {
    await emptyFolder(dataDir, new Set(["db.lock"]));
    unlock();
    if (created) await rmdir(dataDir).catch(() => {});
    throw error;
  }
  unlock();
  return manifest;
}

async function refuseNonEmpty(dataDir: string, allowed: ReadonlySet<string>): Promise<void> {
  const info = await stat(dataDir).catch(() => null);
  if (!info) return;
  if (!info.isDirectory()) throw new BackupRefusedError(`DATA_DIR (${dataDir}) is not a folder.`);
  const found = (await readdir(dataDir)).filter((entry) => !allowed.has(entry));
  if (found.length > 0) {
    throw new BackupRefusedError(
      `DATA_DIR (${dataDir}) is not empty (${found.slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""}): ` +
        "a restore goes into an empty folder only. Stop the server, move the folder aside, and run the restore again.",
    );
  }
}

/** Opens the restored database once: it starts, and holds the migrations the manifest names. */
async function checkDatabase(dir: string, manifest: BackupManifest): Promise<void> {
  let client: PGlite | null = null;
  try {
    client = await PGlite.create(dir, { extensions: pgliteExtensions });
    const level = await readMigrationLevel({ pglite: client });
    if (level.applied !== manifest.migrations.applied || level.latest !== manifest.migrations.latest) {
      throw new BackupRefusedError(
        "the archive's database does not match its manifest: the archive is damaged.",
      );
    }
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    throw new BackupRefusedError(`the archive's database does not open (${(error as Error).message}).`);
  } finally {
    await client?.close();
  }
}
