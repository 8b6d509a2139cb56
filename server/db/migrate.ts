import path from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseHandle, Schema } from "./client";

export const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

const MIGRATION_LOCK_ID = 720_461_001;

/** Applies the SQL migrations in drizzle/; several processes starting at once take turns. */
export async function migrateDatabase(handle: DatabaseHandle, folder = migrationsFolder): Promise<void> {
  if (handle.pglite) {
    await migratePglite(handle.db as unknown as PgliteDatabase<Schema>, { migrationsFolder: folder });
    return;
  }
  if (!handle.pool) throw new Error("database handle has neither PGlite nor a pool");
  // The advisory lock is held by one connection, so lock, migrate and unlock all use it.
  const client = await handle.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrateNodePg(drizzleNodePg(client), { migrationsFolder: folder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
