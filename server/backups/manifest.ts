import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { DatabaseHandle } from "../db/client";

/**
 * Decision 0580: what a backup archive says about itself, in `manifest.json` beside the `data/`
 * folder. The format version changes only when an older restore could not read a newer archive.
 */
export const BACKUP_FORMAT = "campus-buy-sell-backup" as const;
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_NAME = "manifest.json";
/** Every file of DATA_DIR is stored under this folder of the archive. */
export const DATA_PREFIX = "data/";
/** A manifest is a few hundred bytes; anything far larger is not one of ours. */
export const MANIFEST_MAX_BYTES = 64 * 1024;

/** How far the database's migrations have gone: drizzle's own table of applied migrations. */
export const migrationLevelSchema = z
  .object({
    /** How many migrations were applied. */
    applied: z.number().int().min(0).max(100_000),
    /** The `when` of the newest applied one (drizzle/meta/_journal.json), 0 when none. */
    latest: z.number().int().min(0),
  })
  .strict();
export type MigrationLevel = z.infer<typeof migrationLevelSchema>;

export const manifestSchema = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    formatVersion: z.number().int(),
    appVersion: z.string().max(50),
    createdAt: z.iso.datetime(),
    database: z.literal("pglite"),
    migrations: migrationLevelSchema,
    /** 'local': DATA_DIR/media is in the archive; 's3': the media are in a bucket, not in it. */
    media: z.enum(["local", "s3"]),
    /** The archive's entries under data/ (files and folders), and the files' bytes: a cut archive is told. */
    entries: z.number().int().min(1),
    bytes: z.number().int().min(0),
  })
  .strict();
export type BackupManifest = z.infer<typeof manifestSchema>;

/** The level of the database behind `handle` (embedded or not: the same drizzle table). */
export async function readMigrationLevel(handle: Pick<DatabaseHandle, "pglite">): Promise<MigrationLevel> {
  if (!handle.pglite) throw new Error("readMigrationLevel reads the embedded database only");
  const exists = await handle.pglite.query<{ found: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as found",
  );
  if (!exists.rows[0]?.found) return { applied: 0, latest: 0 };
  const result = await handle.pglite.query<{ applied: number; latest: string | null }>(
    "select count(*)::int as applied, max(created_at)::text as latest from drizzle.__drizzle_migrations",
  );
  const row = result.rows[0];
  return { applied: row?.applied ?? 0, latest: Number(row?.latest ?? 0) };
}

/** The level this code's migrations reach (the newest entry of drizzle/meta/_journal.json). */
export function knownMigrationLevel(migrationsFolder: string): MigrationLevel {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  const latest = journal.entries.reduce((max, entry) => Math.max(max, entry.when), 0);
  return { applied: journal.entries.length, latest };
}
