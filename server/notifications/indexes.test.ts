import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notificationQueries } from "./notifications";

/**
 * Decision 0250, docs/architecture.md rule 4: the list and the badge are each one index range —
 * no Sort, no Seq Scan — on tens of thousands of notifications for many users.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  const db = t.ctx.db;
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified)
    select 'nidx-' || g, 'N U.', 'nidx-' || g || '@example.edu', 'N', 'U.', 'nidxu' || g, 'ou', true, true
    from generate_series(1, 200) g`);
  // Decision 0546: the notifications are about posts, whose visibility each line checks.
  await db.execute(sql`
    insert into posts (id, campus_id, author_id, text_plain, created_at, last_modified)
    select md5('npost' || g)::uuid, 'ou', 'nidx-' || (1 + g % 200), 'post ' || g,
      timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute'
    from generate_series(1, 4000) g`);
  await db.execute(sql`
    insert into notifications (campus_id, user_id, actor_id, type, read, created_at, post_id)
    select 'ou', 'nidx-' || (1 + g % 200), 'nidx-' || (1 + (g * 7) % 200), 'like', g % 5 <> 0,
      timestamptz '2026-01-01' + g * interval '1 second', md5('npost' || (1 + g % 4000))::uuid
    from generate_series(1, 40000) g`);
  await db.execute(sql`analyze`);
}, 180_000);
afterAll(() => t.close());

async function explain(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const { pglite, pool } = t.ctx.database;
  const statement = `explain ${text}`;
  const result = pglite
    ? await pglite.query<Record<string, string>>(statement, params)
    : await pool?.query<Record<string, string>>(statement, params);
  if (!result) throw new Error("no database");
  return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe("notification queries are served by their indexes", () => {
  it("the list, first and later pages, from notifications_user_idx in its order", async () => {
    for (const key of [
      null,
      { time: "2026-01-01T05:00:00.000000Z", id: "ffffffff-ffff-4fff-bfff-ffffffffffff" },
    ]) {
      const plan = await explain(
        notificationQueries.page(t.ctx.db, {
          userId: "nidx-7",
          key,
          size: 15,
          now: "2026-03-01T00:00:00.000Z",
        }),
      );
      expect(plan, plan).toMatch(/Index Scan using notifications_user_idx on/);
      expect(plan, plan).not.toMatch(/Seq Scan on notifications|Sort/);
      // Decision 0546: whether a line's post may be seen is a primary-key probe of its post per line.
      expect(plan, plan).toMatch(/posts_pkey/);
      expect(plan, plan).not.toMatch(/Seq Scan on posts/);
    }
  });

  it("the badge's unread count from the partial index of unread rows", async () => {
    const plan = await explain(notificationQueries.unread(t.ctx.db, "nidx-7"));
    expect(plan, plan).toMatch(/notifications_unread_idx/);
    expect(plan, plan).not.toMatch(/Seq Scan on notifications/);
  });
});
