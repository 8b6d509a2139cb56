import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownSession } from "../../tests/support/console";
import { createTestMember } from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { account } from "../db/schema";
import { ADMIN_MESSAGES } from "./errors.shared";
import { REAUTH_AFTER_MS, requireRecentSignIn, sessionTokenOf } from "./reauth";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("a destructive console action's recent sign-in (decision 0563)", () => {
  it("a sign-in of 10 minutes ago or less needs no password; older asks for it", async () => {
    const admin = await createSiteAdmin(t);
    const recent = await ownSession(t, admin.id, 10);
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: recent.token, password: null }),
    ).resolves.toBe(undefined);
    t.clock.advance(1000);
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: recent.token, password: null }),
    ).rejects.toMatchObject({
      code: "reauth-required",
      status: 401,
      field: "password",
      message: ADMIN_MESSAGES.passwordRequired,
    });
    expect(REAUTH_AFTER_MS).toBe(600_000);
  });

  it("the right password confirms an old sign-in; a wrong one is refused, and five lock it", async () => {
    const admin = await createSiteAdmin(t);
    const old = await ownSession(t, admin.id, 60);
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: admin.password }),
    ).resolves.toBe(undefined);
    for (let i = 0; i < 4; i++) {
      await expect(
        requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: "wrong-one" }),
      ).rejects.toMatchObject({ code: "invalid-password", message: ADMIN_MESSAGES.invalidPassword });
    }
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: "wrong-one" }),
    ).rejects.toMatchObject({ code: "too-many-requests", status: 429 });
    // Locked: even the right password waits 15 minutes.
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: admin.password }),
    ).rejects.toMatchObject({ code: "too-many-requests" });
    t.clock.advance(16 * 60_000);
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: admin.password }),
    ).resolves.toBe(undefined);
  });

  it("another account's fresh session, or none, proves nothing", async () => {
    const admin = await createSiteAdmin(t);
    const someone = await createTestMember(t);
    const theirs = await ownSession(t, someone.id, 0);
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: theirs.token, password: null }),
    ).rejects.toMatchObject({ code: "reauth-required" });
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: null, password: null }),
    ).rejects.toMatchObject({
      code: "reauth-required",
    });
  });

  it("an account without a password is told to sign in again", async () => {
    const admin = await createSiteAdmin(t);
    const old = await ownSession(t, admin.id, 30);
    await t.ctx.db.update(account).set({ password: null }).where(eq(account.userId, admin.id));
    await expect(
      requireRecentSignIn(t.ctx, admin.id, { sessionToken: old.token, password: "anything" }),
    ).rejects.toMatchObject({ code: "no-password", message: ADMIN_MESSAGES.noPassword });
  });

  it("reads the session token from a signed cookie value", () => {
    expect(sessionTokenOf("abc.def.sig")).toBe("abc.def");
    expect(sessionTokenOf("abc")).toBe("abc");
    expect(sessionTokenOf(null)).toBe(null);
  });
});
