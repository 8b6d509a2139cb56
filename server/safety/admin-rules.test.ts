import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { startConversation } from "../chats/conversations";
import { moderationLog, safetyRules, user } from "../db/schema";
import { addSafetyRule, listSafetyRules, readPatternText, setSafetyRuleEnabled } from "./admin-rules";
import { SAFETY_ADMIN_MESSAGES } from "./admin-rules.shared";
import { syncBuiltinSafetyRules } from "./rules";

// Decision 0654: a site admin extends the rule set, on the embedded database and (DATABASE_URL) PostgreSQL.

let t: TestContext;
let admin: TestMember;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  await syncBuiltinSafetyRules(t.ctx.db, t.clock.now());
  admin = await createSiteAdmin(t, { fullName: "Ada Admin" });
});
afterAll(() => t.close());

/** A member a month old (past the new-account link rule). */
async function member(name: string): Promise<TestMember> {
  const created = await createTestMember(t, { fullName: name });
  await t.ctx.db
    .update(user)
    .set({ createdAt: new Date(t.clock.now().getTime() - 30 * DAY) })
    .where(eq(user.id, created.id));
  return created;
}

async function ruleCount(): Promise<number> {
  return (await t.ctx.db.select({ id: safetyRules.id }).from(safetyRules)).length;
}

describe("the pattern's two forms", () => {
  it("reads phrases, one per line or between commas, as a terms pattern", () => {
    expect(readPatternText("concert tickets\nface value, ticketmaster transfer")).toEqual({
      kind: "terms",
      terms: ["concert tickets", "face value", "ticketmaster transfer"],
    });
  });

  it("reads the matcher's JSON, nearness included", () => {
    expect(readPatternText('{"kind":"terms","terms":["tickets"],"near":["transfer"],"window":3}')).toEqual({
      kind: "terms",
      terms: ["tickets"],
      near: ["transfer"],
      window: 3,
    });
  });

  it("says what is wrong with a bad pattern", () => {
    expect(() => readPatternText("{not json")).toThrow(SAFETY_ADMIN_MESSAGES.patternNotJson);
    expect(() => readPatternText('{"kind":"regex","source":"(a+)+$"}')).toThrow(
      /kind is terms, detector or any/,
    );
    expect(() => readPatternText('{"kind":"terms","terms":["a"],"window":50}')).toThrow(/at window/);
    expect(() => readPatternText("x".repeat(41))).toThrow(/at most 40 characters/);
    expect(() => readPatternText("!!!")).toThrow(/letter or digit/);
  });
});

describe("site admins only", () => {
  it("is not found for a student", async () => {
    const student = await member("Sam Student");
    await expect(listSafetyRules(t.ctx, student.viewer)).rejects.toMatchObject({ status: 404 });
    await expect(listSafetyRules(t.ctx, null)).rejects.toMatchObject({ status: 404 });
    const before = await ruleCount();
    await expect(
      addSafetyRule(t.ctx, student.viewer, {
        name: "sneaky",
        scope: "chat",
        action: "block",
        pattern: "hello",
        message: "No.",
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await ruleCount()).toBe(before);
  });
});

describe("adding a rule", () => {
  it("lists the built-in rules first, in the product's order", async () => {
    const rules = await listSafetyRules(t.ctx, admin.viewer);
    expect(rules[0]).toMatchObject({
      name: "verification-code",
      builtin: true,
      enabled: true,
      action: "block",
    });
    expect(rules.every((rule) => rule.builtin)).toBe(true);
  });

  it("adds a block rule that refuses the next message with its words", async () => {
    await addSafetyRule(t.ctx, admin.viewer, {
      name: "fake-tickets",
      scope: "both",
      action: "block",
      pattern: "ticket transfer first",
      message: "Not sent: ticket transfers before meeting are a scam here.",
    });
    const rules = await listSafetyRules(t.ctx, admin.viewer);
    expect(rules.at(-1)).toMatchObject({
      name: "fake-tickets",
      builtin: false,
      enabled: true,
      scope: "both",
    });
    const a = await member("Ann Able");
    const b = await member("Ben Baker");
    await expect(
      startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "Ticket transfer first, then we meet" }),
    ).rejects.toMatchObject({ code: "safety-blocked", message: expect.stringContaining("ticket transfers") });
    // Scope both: a listing's text too.
    await expect(
      createTestPost(t, a.viewer, { text: "Selling: ticket transfer first" }),
    ).rejects.toMatchObject({
      code: "safety-blocked",
    });
  });

  it("adds a warning counted toward the flag only when it is a warning", async () => {
    await addSafetyRule(t.ctx, admin.viewer, {
      name: "crypto-only",
      scope: "chat",
      action: "warn",
      pattern: '{"kind":"terms","terms":["crypto"],"near":["only"],"window":3}',
      message: "Crypto only is how scams avoid refunds.",
      countsTowardFlag: "on",
    });
    const [row] = await t.ctx.db.select().from(safetyRules).where(eq(safetyRules.key, "crypto-only"));
    expect(row).toMatchObject({
      action: "warn",
      countsTowardFlag: true,
      builtin: false,
      createdBy: admin.id,
    });
    const [logged] = await t.ctx.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.targetId, row?.id ?? ""));
    expect(logged).toMatchObject({ action: "add_safety_rule", actorId: admin.id, campusId: null });
  });

  it("refuses a bad pattern, a used name and a nudge on listings, writing nothing", async () => {
    const before = await ruleCount();
    const base = { scope: "chat" as const, action: "block" as const, message: "No." };
    await expect(
      addSafetyRule(t.ctx, admin.viewer, { ...base, name: "bad-json", pattern: "{oops" }),
    ).rejects.toMatchObject({ field: "pattern", message: SAFETY_ADMIN_MESSAGES.patternNotJson });
    await expect(
      addSafetyRule(t.ctx, admin.viewer, { ...base, name: "payment-first", pattern: "zelle" }),
    ).rejects.toMatchObject({ field: "name", message: SAFETY_ADMIN_MESSAGES.nameTaken });
    await expect(
      addSafetyRule(t.ctx, admin.viewer, { ...base, name: "Bad Name", pattern: "zelle" }),
    ).rejects.toMatchObject({ field: "name", message: SAFETY_ADMIN_MESSAGES.nameInvalid });
    await expect(
      addSafetyRule(t.ctx, admin.viewer, {
        ...base,
        scope: "listing",
        action: "nudge",
        name: "listing-nudge",
        pattern: "zelle",
      }),
    ).rejects.toMatchObject({ field: "action", message: SAFETY_ADMIN_MESSAGES.nudgeChatOnly });
    expect(await ruleCount()).toBe(before);
  });
});

describe("switching a rule", () => {
  it("switches a rule off and on; off, it stops nothing, and the start-up rewrite keeps it off", async () => {
    const rules = await listSafetyRules(t.ctx, admin.viewer);
    const code = rules.find((rule) => rule.name === "verification-code");
    if (!code) throw new Error("no built-in rule");
    await setSafetyRuleEnabled(t.ctx, admin.viewer, { ruleId: code.id, enabled: "false" });
    await syncBuiltinSafetyRules(t.ctx.db, t.clock.now());
    const c = await member("Cat Cole");
    const d = await member("Dan Doe");
    await startConversation(t.ctx, c.viewer, { recipientId: d.id, text: "what's the code Google sent you" });
    expect((await listSafetyRules(t.ctx, admin.viewer)).find((rule) => rule.id === code.id)?.enabled).toBe(
      false,
    );
    await setSafetyRuleEnabled(t.ctx, admin.viewer, { ruleId: code.id, enabled: "true" });
    const e = await member("Eve Eng");
    await expect(
      startConversation(t.ctx, c.viewer, { recipientId: e.id, text: "what's the code Google sent you" }),
    ).rejects.toMatchObject({ code: "safety-blocked" });
  });

  it("is not found for an unknown rule or a student", async () => {
    const student = await member("Fay Fox");
    const rules = await listSafetyRules(t.ctx, admin.viewer);
    const id = rules[0]?.id ?? "";
    await expect(
      setSafetyRuleEnabled(t.ctx, student.viewer, { ruleId: id, enabled: "false" }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      setSafetyRuleEnabled(t.ctx, admin.viewer, {
        ruleId: "00000000-0000-4000-8000-000000000000",
        enabled: "false",
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
