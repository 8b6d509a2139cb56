import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { signIn } from "../accounts/accounts";
import { listFeed } from "../posts/feed";
import { posts, user } from "./schema";
import { DEMO_PASSWORD, seedDemoData } from "./seed";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("demo data (CONTRACT.md: seeded into an empty database unless SEED_DEMO=0)", () => {
  it("adds school-verified demo students whose posts show in their campus feed", async () => {
    await seedDemoData(t.ctx);
    const students = await t.ctx.db.select().from(user);
    expect(students).toHaveLength(3);
    expect(students.every((s) => s.verified && s.schoolVerified)).toBe(true);
    const feed = await listFeed(t.ctx, null, { campusId: "ou" });
    expect(feed.items.filter((item) => item.type === "post")).toHaveLength(3);
    expect(feed.items.filter((item) => item.type === "new user")).toHaveLength(2);
  });

  it("lets a demo student log in with the documented password", async () => {
    const result = await signIn(
      t.ctx,
      t.auth,
      { email: "olivia@demo.campusbuysell.test", password: DEMO_PASSWORD },
      { clientIp: "127.0.0.1", headers: new Headers() },
    );
    expect(result.verified).toBe(true);
    expect(result.headers.get("set-cookie")).toContain("session_token");
  });

  it("never seeds a database that already has users", async () => {
    const [before] = await t.ctx.db.select({ count: sql<number>`count(*)::int` }).from(posts);
    await seedDemoData(t.ctx);
    const [after] = await t.ctx.db.select({ count: sql<number>`count(*)::int` }).from(posts);
    expect(after?.count).toBe(before?.count);
    const olivia = await t.ctx.db.select().from(user).where(eq(user.username, "oliviam"));
    expect(olivia).toHaveLength(1);
  });
});
