import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { pgliteExtensions, wrapPglite, wrapPool } from "../../server/db/client";
import { migrateDatabase } from "../../server/db/migrate";

// TEST_TEMPLATE_DATABASE lets two checkouts run their PostgreSQL tests on one server at once.
export const TEMPLATE_DATABASE = process.env.TEST_TEMPLATE_DATABASE ?? "cbs_test_template";
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(TEMPLATE_DATABASE)) {
  throw new Error(`TEST_TEMPLATE_DATABASE must be a plain lower-case identifier, got ${TEMPLATE_DATABASE}`);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run (docs/architecture.md pitfall 4): into a PGlite snapshot
 * that each test file loads, or, with DATABASE_URL, into a template database
 * that each test file copies.
 */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [TEMPLATE_DATABASE],
    );
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE}`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
    await admin.end();
    const templateUrl = new URL(databaseUrl);
    templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
    const handle = wrapPool(new pg.Pool({ connectionString: templateUrl.toString(), max: 1 }));
    await migrateDatabase(handle);
    await handle.close();
    project.provide("postgresTemplate", TEMPLATE_DATABASE);
    project.provide("pgliteSnapshot", "");
    return;
  }
  const client = await PGlite.create({ extensions: pgliteExtensions });
  await migrateDatabase(wrapPglite(client));
  const snapshot = await client.dumpDataDir("none");
  await client.close();
  const dir = path.resolve(".tmp");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pglite-snapshot-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide("pgliteSnapshot", file);
  project.provide("postgresTemplate", "");
}
