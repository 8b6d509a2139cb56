import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { user } from "../db/schema";
import { searchPeople } from "./people";

let t: TestContext;
let seller: TestMember;
let buyer: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  seller = await createTestMember(t, { fullName: "Sally Fridgeworth" });
  buyer = await createTestMember(t, { fullName: "Bob Buyer" });
  await createTestMember(t, { fullName: "Uma Texan", campusId: "ut" });
});
afterAll(() => t.close());

describe("people", () => {
  it("finds the campus's people by name or username, with a typo, never another campus's", async () => {
    const byName = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "sally" });
    expect(byName.items.map((p) => p.id)).toEqual([seller.id]);
    const typo = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "saly" });
    expect(typo.items.map((p) => p.id)).toContain(seller.id);
    const [row] = await t.ctx.db.select({ username: user.username }).from(user).where(eq(user.id, seller.id));
    const byUsername = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: row?.username ?? "" });
    expect(byUsername.items[0]?.id).toBe(seller.id);
    expect((await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "uma texan" })).items).toEqual(
      [],
    );
    expect((await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "s" })).items).toEqual([]);
    const notMe = await searchPeople(t.ctx, seller.viewer, {
      campusId: "ou",
      text: "sally",
      excludeViewer: true,
    });
    expect(notMe.items).toEqual([]);
  });

  it("pages people without repeats", async () => {
    for (let i = 0; i < 4; i++) await createTestMember(t, { fullName: `Pager${"abcd"[i]} Pat` });
    const first = await searchPeople(t.ctx, buyer.viewer, { campusId: "ou", text: "pager", limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await searchPeople(t.ctx, buyer.viewer, {
      campusId: "ou",
      text: "pager",
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items].map((p) => p.id);
    expect(new Set(ids).size).toBe(4);
  });
});
