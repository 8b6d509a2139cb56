import { desc } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Queryable } from "../db/client";
import { backups } from "../db/schema";

/** A backup's file name as kept: the name alone, never a folder, bounded like any stored text. */
export function backupFileName(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? "";
  return name.slice(0, 255);
}

/**
 * Decision 0580: each backup made is a row, written by the process that took the snapshot, once
 * the archive is complete (its size is known only then). So a backup's own row is in the next
 * backup, not in itself: a restored database knows the backups made before the one restored.
 */
export async function recordBackup(
  db: Queryable,
  clock: Clock,
  backup: { file: string; bytes: number },
): Promise<void> {
  await db.insert(backups).values({
    file: backupFileName(backup.file),
    bytes: backup.bytes,
    createdAt: clock.now(),
  });
}

/** The newest backup made with the command, or null (the operator console shows its age). */
export async function newestBackup(
  db: Queryable,
): Promise<{ file: string; bytes: number; createdAt: Date } | null> {
  const [row] = await db
    .select({ file: backups.file, bytes: backups.bytes, createdAt: backups.createdAt })
    .from(backups)
    .orderBy(desc(backups.createdAt))
    .limit(1);
  return row ?? null;
}
