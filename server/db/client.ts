import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { lockEmbeddedDatabase } from "./embedded-lock";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The one data-access type: both drivers speak the same Drizzle API. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a domain function can run queries on: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** The raw PGlite instance (embedded mode), for LISTEN/NOTIFY and snapshots. */
  pglite: PGlite | null;
  /** The pg pool (server mode). */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

export const pgliteExtensions = { pg_trgm, btree_gin, fuzzystrmatch };

export function wrapPglite(client: PGlite): DatabaseHandle {
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: "pglite",
    pglite: client,
    pool: null,
    close: () => client.close(),
  };
}

/**
 * Decision 0470: how long a query waits for a connection, new or from the pool, before it
 * fails as 'database unavailable' (a 503 with Retry-After). Without it, a server that does not
 * answer at all (a host gone, not a port closed) held each request for the system's TCP timeout,
 * minutes. Far above any wait for a pooled connection under load (bench/README.md).
 */
export const POOL_CONNECT_TIMEOUT_MS = 10_000;

export function wrapPool(pool: pg.Pool): DatabaseHandle {
  // An idle connection the server closes (a restart, an administrator, a dropped database) is
  // reported here; without a listener it would end the process. The pool replaces it on the next query.
  pool.on("error", () => {});
  return {
    db: drizzleNodePg(pool, { schema }) as unknown as Db,
    kind: "postgres",
    pglite: null,
    pool,
    close: () => pool.end(),
  };
}

/**
 * Decision 0361: a pool on a read replica (DATABASE_READ_URL), for reads that may lag the
 * primary by a moment (the visitors' lists). Its own pool of 10, beside the primary's.
 */
export function openReadReplica(url: string): { db: Db; close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
  });
  const { db, close } = wrapPool(pool);
  return { db, close };
}

/**
 * Opens the database once per process: PostgreSQL when DATABASE_URL is set,
 * else PGlite persisted under DATA_DIR/db (docs/architecture.md pitfall 4: it does
 * not create parent folders, and one instance per folder per process; DATA_DIR/db.lock
 * keeps out every other process, decision 0522).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
    });
    return wrapPool(pool);
  }
  const dir = path.join(options.dataDir, "db");
  mkdirSync(dir, { recursive: true });
  // Decision 0522: one process at a time (the server, or `npm run staff` while it is stopped).
  const unlock = lockEmbeddedDatabase(`${dir}.lock`);
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: pgliteExtensions });
  } catch (error) {
    unlock();
    throw error;
  }
  const handle = wrapPglite(client);
  return {
    ...handle,
    close: async () => {
      try {
        await handle.close();
      } finally {
        unlock();
      }
    },
  };
}
