import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { isForeignKeyViolation, isUniqueViolation } from "./errors";

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await t.ctx.db.execute(
    sql`create table parent_rows (id int primary key, name text constraint parent_rows_name_key unique)`,
  );
  await t.ctx.db.execute(sql`create table child_rows (parent_id int references parent_rows (id))`);
  await t.ctx.db.execute(sql`insert into parent_rows values (1, 'taken')`);
});

afterAll(async () => {
  await t?.close();
});

/** The error Drizzle throws for a statement, as a domain function would catch it. */
async function failureOf(statement: ReturnType<typeof sql>): Promise<unknown> {
  try {
    await t.ctx.db.execute(statement);
  } catch (error) {
    return error;
  }
  throw new Error("the statement succeeded");
}

describe("database refusals (decision 0150: one module under server/db/)", () => {
  it("recognises a unique violation on the named constraint only", async () => {
    const error = await failureOf(sql`insert into parent_rows values (2, 'taken')`);
    expect(isUniqueViolation(error, "parent_rows_name_key")).toBe(true);
    expect(isUniqueViolation(error, "user_email_unique")).toBe(false);
    expect(isForeignKeyViolation(error)).toBe(false);
  });

  it("recognises a foreign-key violation: the row referred to is gone", async () => {
    const error = await failureOf(sql`insert into child_rows values (99)`);
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(isUniqueViolation(error, "parent_rows_name_key")).toBe(false);
  });

  it("answers no for anything that is not a database error", () => {
    expect(isForeignKeyViolation(new Error("boom"))).toBe(false);
    expect(isUniqueViolation("23505", "parent_rows_name_key")).toBe(false);
  });
});
