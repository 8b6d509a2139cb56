import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { backupFileName, newestBackup, recordBackup } from "./record";

// Decision 0580: each backup made is a row; the operator console reads the newest.
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(async () => {
  await t.close();
});

describe("the backups made", () => {
  it("keeps each backup's file name (no folder), size and the clock's time, newest first", async () => {
    expect(await newestBackup(t.ctx.db)).toBeNull();
    await recordBackup(t.ctx.db, t.clock, { file: "/srv/backups/monday.zip", bytes: 1_000 });
    t.clock.advance(24 * 60 * 60 * 1000);
    await recordBackup(t.ctx.db, t.clock, { file: "C:\\backups\\tuesday.zip", bytes: 2_000 });
    expect(await newestBackup(t.ctx.db)).toEqual({
      file: "tuesday.zip",
      bytes: 2_000,
      createdAt: t.clock.now(),
    });
  });

  it("bounds a stored name", () => {
    expect(backupFileName(`/x/${"a".repeat(300)}.zip`)).toHaveLength(255);
    expect(backupFileName("site.zip")).toBe("site.zip");
  });
});
