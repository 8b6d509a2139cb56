import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ACCOUNT_TABLES } from "./account-tables";

// Decision 0571: the deletion's table list covers every table that holds a user's id. The
// database's catalogue is the source: every foreign key to "user", and every text column whose
// name says it holds a person (…user_id, …_by, author…, actor…, reporter…) even without one. A
// new table that forgets to say what an account's deletion does to it fails here.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function tablesReferencingUsers(): Promise<Map<string, string[]>> {
  const result = await t.ctx.db.execute(sql`
    select cl.relname as table_name, a.attname as column_name
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
     where c.contype = 'f' and c.confrelid = '"user"'::regclass and n.nspname = 'public'
    union
    select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type = 'text'
       and (column_name ~ '(^|_)user_id$' or column_name ~ '_by$' or column_name ~ '^(author|actor|reporter|sender|blocker|blocked)')`);
  const found = new Map<string, string[]>();
  for (const row of (result as unknown as { rows: { table_name: string; column_name: string }[] }).rows) {
    found.set(row.table_name, [...(found.get(row.table_name) ?? []), row.column_name]);
  }
  return found;
}

describe("the account deletion's table list", () => {
  it("names every table that references users, with what deleting an account does to it", async () => {
    const found = await tablesReferencingUsers();
    // The catalogue sees the tables it should (a query that found nothing would pass anything).
    expect(found.get("posts")).toContain("author_id");
    expect(found.get("session")).toContain("user_id");
    const missing = [...found.keys()].filter((table) => !(table in ACCOUNT_TABLES)).sort();
    expect(
      missing,
      `tables holding user ids that account deletion does not cover: ${missing.join(", ")}`,
    ).toEqual([]);
  });

  it("lists only tables that exist, and for deleted ones columns that exist", async () => {
    const result = await t.ctx.db.execute(sql`
      select table_name, column_name from information_schema.columns where table_schema = 'public'`);
    const columns = new Set(
      (result as unknown as { rows: { table_name: string; column_name: string }[] }).rows.map(
        (row) => `${row.table_name}.${row.column_name}`,
      ),
    );
    for (const [table, fate] of Object.entries(ACCOUNT_TABLES)) {
      const exists = [...columns].some((column) => column.startsWith(`${table}.`));
      expect(exists, `${table} exists`).toBe(true);
      if (fate.fate === "deleted") {
        for (const column of fate.columns)
          expect(columns.has(`${table}.${column}`), `${table}.${column}`).toBe(true);
      }
    }
  });
});
