import { existsSync } from "node:fs";
import path from "node:path";
import type { Clock } from "../clock";
import { openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { BackupRefusedError, writeBackupArchive } from "./archive";
import { callControl, readControlFile } from "./control-client";
import { snapshotAnswerSchema } from "./control-server";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from "./manifest";
import { backupFileName, recordBackup } from "./record";
import { isSnapshotId, removeSnapshot, snapshotRoot, takeSnapshot } from "./snapshot";

function notListening(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") return null;
  throw error;
}

export interface BackupMade {
  file: string;
  bytes: number;
  createdAt: Date;
  /** 'server': the running server took the snapshot; 'direct': no server ran, the command opened the database. */
  takenBy: "server" | "direct";
  media: "local" | "s3";
  /** DATA_DIR paths left out (symbolic links). */
  skipped: string[];
}

/**
 * Decision 0580: `npm run backup -- FILE`. With a server running on DATA_DIR, it asks the server
 * for the snapshot (control-server.ts) and writes the archive from it; with none, it opens the
 * embedded database itself (taking its lock, decision 0522), migrated as a start would, and does
 * the same. Either way the process that took the snapshot records the backup once the archive is
 * whole.
 */
export async function makeBackup(options: {
  dataDir: string;
  outFile: string;
  appVersion: string;
  clock: Clock;
  /** S3_BUCKET is set: the media are in the bucket (only asked when no server runs). */
  mediaInBucket: boolean;
}): Promise<BackupMade> {
  const { dataDir, outFile } = options;
  if (outFile === dataDir || outFile.startsWith(`${dataDir}${path.sep}`)) {
    throw new BackupRefusedError(
      "the backup file is inside DATA_DIR: it would be lost with the folder. Write it somewhere else.",
    );
  }
  if (existsSync(outFile)) throw new BackupRefusedError(`${outFile} exists already.`);
  if (!existsSync(path.dirname(outFile))) {
    throw new BackupRefusedError(`the folder ${path.dirname(outFile)} does not exist.`);
  }
  if (!existsSync(path.join(dataDir, "db"))) {
    throw new BackupRefusedError(`DATA_DIR (${dataDir}) holds no embedded database.`);
  }
  const manifestBase = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion: options.appVersion,
    database: "pglite" as const,
  };

  const control = await readControlFile(dataDir);
  // A control file whose process id now names another program: nobody listens; the lock decides.
  const answer = control ? await callControl(control, "/snapshot", {}).catch(notListening) : null;
  if (control && answer !== null) {
    const snapshot = snapshotAnswerSchema.parse(answer);
    if (!isSnapshotId(snapshot.id)) throw new Error("the server answered a malformed snapshot id");
    let bytes: number;
    try {
      ({ bytes } = await writeBackupArchive({
        snapshotDir: path.join(snapshotRoot(dataDir), snapshot.id),
        manifest: {
          ...manifestBase,
          createdAt: snapshot.createdAt,
          migrations: snapshot.migrations,
          media: snapshot.media,
        },
        outFile,
      }));
    } catch (error) {
      await callControl(control, "/discard", { id: snapshot.id }).catch(() => {});
      throw error;
    }
    await callControl(control, "/record", { id: snapshot.id, file: backupFileName(outFile), bytes });
    return {
      file: outFile,
      bytes,
      createdAt: new Date(snapshot.createdAt),
      takenBy: "server",
      media: snapshot.media,
      skipped: snapshot.skipped,
    };
  }

  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    await migrateDatabase(database);
    const pglite = database.pglite;
    if (!pglite) throw new Error("the embedded database did not open as PGlite");
    const snapshot = await takeSnapshot({ pglite, dataDir, clock: options.clock });
    const media = options.mediaInBucket ? "s3" : "local";
    let bytes: number;
    try {
      ({ bytes } = await writeBackupArchive({
        snapshotDir: snapshot.dir,
        manifest: {
          ...manifestBase,
          createdAt: snapshot.createdAt.toISOString(),
          migrations: snapshot.migrations,
          media,
        },
        outFile,
      }));
    } finally {
      await removeSnapshot(dataDir, snapshot.id);
    }
    await recordBackup(database.db, options.clock, { file: outFile, bytes });
    return {
      file: outFile,
      bytes,
      createdAt: snapshot.createdAt,
      takenBy: "direct",
      media,
      skipped: snapshot.skipped,
    };
  } finally {
    await database.close();
  }
}
