import { APIError } from "better-auth/api";
import { handleOAuthUserInfo } from "better-auth/oauth2";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, requestHeaders, viewerOf } from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ADMIN_MESSAGES } from "../admin/errors.shared";
import { resendStudentCode, verifyStudentEmail } from "../admin/student-actions";
import { account, session, user } from "../db/schema";
import { deleteAccount } from "../privacy/deletion";
import { GOOGLE_PROVIDER_ID } from "./auth";
import { RESERVED_AUTH_CODE } from "./errors.shared";
import { GOOGLE_MESSAGES, googleErrorMessage } from "./google";

// Decision 0573: Google with an address a deleted account reserves for its 30 days links nothing
// to the tombstone and opens no session, whatever better-auth's account-linking rules allow.

let t: TestContext;
let tombstone: { id: string; email: string };
beforeAll(async () => {
  t = await createTestContext();
  const leaver = await createTestMember(t, { fullName: "Gail Gone" });
  await deleteAccount(
    t.ctx,
    t.auth,
    await viewerOf(t, leaver.id),
    { password: leaver.password, confirm: "on" },
    requestHeaders({ cookie: leaver.cookie }),
  );
  tombstone = { id: leaver.id, email: leaver.email };
});
afterAll(() => t.close());

async function tombstoneRows() {
  const [row] = await t.ctx.db.select().from(user).where(eq(user.id, tombstone.id));
  const links = await t.ctx.db.select().from(account).where(eq(account.userId, tombstone.id));
  const sessions = await t.ctx.db.select().from(session).where(eq(session.userId, tombstone.id));
  return { row, links, sessions };
}

describe("Google with a deleted account's reserved address (decision 0573)", () => {
  it("is refused as 'account already exists', linking nothing and changing nothing", async () => {
    const before = await tombstoneRows();
    const context = await t.auth.$context;
    // What the Google callback runs once Google vouched for the address (verified at Google).
    const result = await handleOAuthUserInfo(
      { context } as unknown as Parameters<typeof handleOAuthUserInfo>[0],
      {
        userInfo: { id: "google-sub-1", email: tombstone.email, emailVerified: true, name: "Gail Back" },
        account: { providerId: GOOGLE_PROVIDER_ID, accountId: "google-sub-1" },
        callbackURL: "/home",
        // As if Google were trusted to link by address: the tombstone must still get nothing.
        isTrustedProvider: true,
      },
    );
    expect(result.error).toBe("account not linked");
    expect(googleErrorMessage("account_not_linked")).toBe(GOOGLE_MESSAGES.accountExists);
    const after = await tombstoneRows();
    expect(after.links).toEqual([]);
    expect(after.sessions).toEqual([]);
    expect(after.row).toEqual(before.row);
  });

  it("the path that linked: a console 'Verify e-mail' on the tombstone, then Google; both refused now", async () => {
    const admin = await createSiteAdmin(t);
    for (const act of [verifyStudentEmail, resendStudentCode]) {
      await expect(
        act(t.ctx, admin.viewer, { studentId: tombstone.id, reason: "asked by phone" }),
      ).rejects.toMatchObject({ code: "not-applicable", message: ADMIN_MESSAGES.accountDeleted });
    }
    // A tombstone verified anyhow (the console before this decision): better-auth's own rule
    // (a local address must be verified to link) no longer stops Google; the account hook does.
    await t.ctx.db.update(user).set({ verified: true }).where(eq(user.id, tombstone.id));
    const before = await tombstoneRows();
    const context = await t.auth.$context;
    const attempt = handleOAuthUserInfo({ context } as unknown as Parameters<typeof handleOAuthUserInfo>[0], {
      userInfo: { id: "google-sub-4", email: tombstone.email, emailVerified: true, name: "Gail Back" },
      account: { providerId: GOOGLE_PROVIDER_ID, accountId: "google-sub-4" },
      callbackURL: "/home",
    });
    await expect(attempt).rejects.toMatchObject({ body: { code: RESERVED_AUTH_CODE } });
    const after = await tombstoneRows();
    expect(after.links).toEqual([]);
    expect(after.sessions).toEqual([]);
    expect(after.row).toEqual(before.row);
    await t.ctx.db.update(user).set({ verified: false }).where(eq(user.id, tombstone.id));
  });

  it("refuses any link to the tombstone at the account hook, the row never written", async () => {
    const context = await t.auth.$context;
    const attempt = context.internalAdapter.linkAccount({
      providerId: GOOGLE_PROVIDER_ID,
      accountId: "google-sub-2",
      userId: tombstone.id,
    });
    await expect(attempt).rejects.toBeInstanceOf(APIError);
    await expect(attempt).rejects.toMatchObject({ body: { code: RESERVED_AUTH_CODE } });
    expect((await tombstoneRows()).links).toEqual([]);
    // The callback turns the code into spec 1 §8's words for an address it may not link.
    expect(googleErrorMessage(RESERVED_AUTH_CODE)).toBe(GOOGLE_MESSAGES.accountExists);
  });

  it("still links for a living account (the hook refuses only tombstones)", async () => {
    const living = await createTestMember(t);
    const context = await t.auth.$context;
    await context.internalAdapter.linkAccount({
      providerId: GOOGLE_PROVIDER_ID,
      accountId: "google-sub-3",
      userId: living.id,
    });
    const links = await t.ctx.db.select().from(account).where(eq(account.userId, living.id));
    expect(links.map((row) => row.providerId)).toContain(GOOGLE_PROVIDER_ID);
  });
});
