import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { wrapPool } from "../db/client";
import { runExclusively } from "./exclusive";

let t: TestContext | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("runExclusively (decision 0291)", () => {
  it("skips a run while another holds the same lock, runs again after it, and keeps names apart", async () => {
    t = await createTestContext();
    const { ctx } = t;
    const first = gate();
    const holding = runExclusively(ctx, "expire-ads", async () => {
      await first.opened;
      return "first";
    });
    // Let the first run take its lock.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await runExclusively(ctx, "expire-ads", async () => "second")).toEqual({ ran: false });
    expect(await runExclusively(ctx, "prune-events", async () => "other")).toEqual({
      ran: true,
      value: "other",
    });
    first.open();
    expect(await holding).toEqual({ ran: true, value: "first" });
    expect(await runExclusively(ctx, "expire-ads", async () => "third")).toEqual({
      ran: true,
      value: "third",
    });
  });

  it("releases the lock when the run throws", async () => {
    t = await createTestContext();
    const { ctx } = t;
    await expect(
      runExclusively(ctx, "failing", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await runExclusively(ctx, "failing", async () => 1)).toEqual({ ran: true, value: 1 });
  });

  it.runIf(process.env.DATABASE_URL)(
    "on PostgreSQL, holds the lock against another process's pool, and frees it when that session dies",
    async () => {
      t = await createTestContext();
      const { ctx } = t;
      const pool = ctx.database.pool;
      if (!pool) throw new Error("expected PostgreSQL");
      // Another process: its own pool on the same database.
      const other = wrapPool(new pg.Pool({ connectionString: pool.options.connectionString, max: 2 }));
      try {
        const held = gate();
        const holding = runExclusively(ctx, "nightly", () => held.opened);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await runExclusively({ database: other }, "nightly", async () => "other")).toEqual({
          ran: false,
        });
        held.open();
        await holding;
        expect(await runExclusively({ database: other }, "nightly", async () => "other")).toEqual({
          ran: true,
          value: "other",
        });

        // A process killed mid-round: its connection ends, and the lock with it.
        const stuck = gate();
        const dying = runExclusively({ database: other }, "nightly", () => stuck.opened);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await runExclusively(ctx, "nightly", async () => 1)).toEqual({ ran: false });
        const holder = await pool.query<{ pid: number }>(
          `select pid from pg_locks where locktype = 'advisory' and granted and objsubid = 2
             and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(holder.rows).toHaveLength(1);
        await pool.query("select pg_terminate_backend($1)", [holder.rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await runExclusively(ctx, "nightly", async () => 2)).toEqual({ ran: true, value: 2 });
        stuck.open();
        await dying;
      } finally {
        await other.close();
      }
    },
  );
});
