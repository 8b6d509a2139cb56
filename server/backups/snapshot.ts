import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { copyFile, cp, link, lstat, mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Clock } from "../clock";
import { type MigrationLevel, readMigrationLevel } from "./manifest";

/**
 * Decision 0580: a consistent copy of DATA_DIR, taken by the process that holds the embedded
 * database. PGlite runs PostgreSQL in this process, one statement at a time; while we hold its
 * transaction and query locks no statement runs and no transaction is open, so its files on disk
 * are those of a stopped server with nothing in flight (committed work is in the WAL, which the copy
 * carries; the next start replays it). The copy is made file by file on disk, never in memory:
 * PGlite's dumpDataDir builds the whole tarball in memory, twice the database's size.
 *
 * The other files of DATA_DIR (media, the generated secrets, the data exports) are hard-linked
 * inside the same pause, so they are exactly those of that moment: the app writes a media file
 * before the row that names it commits, deletes it only after, and never rewrites one in place
 * (decision 0050), so every file a row of the copy names is there.
 */

/** Where snapshots are staged, inside DATA_DIR's scratch folder (never itself backed up). */
export function snapshotRoot(dataDir: string): string {
  return path.join(dataDir, "tmp", "backups");
}

/** DATA_DIR's entries that are not copied as they are: the database (copied in the pause), its lock, scratch. */
export const NOT_COPIED = new Set(["db", "db.lock", "tmp", "backup-control.json"]);

export interface Snapshot {
  /** A random id; the staging folder is snapshotRoot(dataDir)/id, DATA_DIR's copy is its `data/`. */
  id: string;
  dir: string;
  createdAt: Date;
  migrations: MigrationLevel;
  /** Paths (relative to DATA_DIR) left out because they are neither files nor folders (symbolic links). */
  skipped: string[];
}

export function isSnapshotId(value: string): boolean {
  return /^[a-f0-9]{32}$/.test(value);
}

export async function takeSnapshot(options: {
  pglite: PGlite;
  dataDir: string;
  clock: Clock;
}): Promise<Snapshot> {
  const { pglite, dataDir } = options;
  const id = randomBytes(16).toString("hex");
  const dir = path.join(snapshotRoot(dataDir), id);
  const target = path.join(dir, "data");
  await mkdir(target, { recursive: true, mode: 0o700 });
  try {
    const migrations = await readMigrationLevel({ pglite });
    // Written out now, so the pause below copies pages rather than a long WAL to replay.
    await pglite.exec("CHECKPOINT");
    const skipped: string[] = [];
    const createdAt = await pglite._runExclusiveTransaction(() =>
      pglite.runExclusive(async () => {
        const at = options.clock.now();
        // COPYFILE_FICLONE: a copy-on-write clone where the file system has them, a plain copy elsewhere.
        await cp(path.join(dataDir, "db"), path.join(target, "db"), {
          recursive: true,
          mode: constants.COPYFILE_FICLONE,
        });
        for (const entry of await readdir(dataDir)) {
          if (NOT_COPIED.has(entry) || entry.startsWith(".restore-")) continue;
          await linkTree(path.join(dataDir, entry), path.join(target, entry), entry, skipped);
        }
        return at;
      }),
    );
    return { id, dir, createdAt, migrations, skipped };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A folder's files hard-linked (copied across file systems), its folders made, anything else skipped. */
async function linkTree(from: string, to: string, relative: string, skipped: string[]): Promise<void> {
  const info = await lstat(from);
  if (info.isDirectory()) {
    await mkdir(to, { mode: 0o700 });
    for (const entry of await readdir(from)) {
      // A media file being written is renamed into place when whole; the partial one is nobody's yet.
      if (entry.endsWith(".partial")) continue;
      await linkTree(path.join(from, entry), path.join(to, entry), `${relative}/${entry}`, skipped);
    }
  } else if (info.isFile()) {
    try {
      await link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EXDEV" && code !== "EPERM" && code !== "EMLINK") throw error;
      await copyFile(from, to);
    }
  } else {
    skipped.push(relative);
  }
}

/** Removes a staging folder (its id checked: never a path a caller made up). */
export async function removeSnapshot(dataDir: string, id: string): Promise<void> {
  if (!isSnapshotId(id)) return;
  await rm(path.join(snapshotRoot(dataDir), id), { recursive: true, force: true });
}

/** Staging folders left by a process that died mid-backup, except those `keep` names. */
export async function sweepSnapshots(dataDir: string, keep: ReadonlySet<string>): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(snapshotRoot(dataDir));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (keep.has(entry)) continue;
    const full = path.join(snapshotRoot(dataDir), entry);
    if ((await stat(full).catch(() => null))?.isDirectory()) await rm(full, { recursive: true, force: true });
  }
}
