import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as unsubscribeRoute from "../../app/routes/notifications/unsubscribe";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { user } from "../db/schema";
import {
  UNSUBSCRIBE_LINK_DAYS,
  type UnsubscribeKind,
  unsubscribeFromNotificationEmails,
  unsubscribeToken,
  unsubscribeUrl,
} from "./email";

// Decision 0461: unsubscribe links are bound to the address, the kind of mail and a
// rotation secret, and expire.

let t: TestContext;
let server: RouteServer;
let ana: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  ana = await createTestMember(t, { fullName: "Ana Reader" });
  server = await startRouteServer(t, [
    { id: "routes/notifications/unsubscribe", path: "notifications/unsubscribe", module: unsubscribeRoute },
  ]);
});
afterAll(async () => {
  await server.close();
  await t.close();
});
beforeEach(async () => {
  await t.ctx.db.update(user).set({ emailNotifications: true, email: ana.email }).where(eq(user.id, ana.id));
});

async function emailsOn(): Promise<boolean | undefined> {
  const [row] = await t.ctx.db.select({ on: user.emailNotifications }).from(user).where(eq(user.id, ana.id));
  return row?.on;
}

/** The page as a mail client or browser opens it: loader data and status. */
async function openPage(token: string) {
  const response = await fetch(`${server.base}/notifications/unsubscribe?token=${encodeURIComponent(token)}`);
  const body = (await response.json()) as { loaderData: Record<string, { valid: boolean }> };
  return { status: response.status, valid: body.loaderData["routes/notifications/unsubscribe"]?.valid };
}

/** RFC 8058's one-click POST to the List-Unsubscribe address. */
async function oneClick(token: string) {
  const response = await fetch(
    `${server.base}/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    },
  );
  return response.status;
}

describe("unsubscribe links (decision 0461)", () => {
  it("a fresh link opens the page and its one-click POST turns e-mails off", async () => {
    const url = new URL(unsubscribeUrl(t.ctx, "ou", ana));
    const token = url.searchParams.get("token") ?? "";
    expect(await openPage(token)).toEqual({ status: 200, valid: true });
    expect(await emailsOn()).toBe(true);
    expect(await oneClick(token)).toBe(200);
    expect(await emailsOn()).toBe(false);
  });

  it("stops working once the account's e-mail address changed", async () => {
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    await t.ctx.db.update(user).set({ email: "ana.new@ou.edu" }).where(eq(user.id, ana.id));
    expect(await openPage(token)).toEqual({ status: 400, valid: false });
    expect(await oneClick(token)).toBe(400);
    expect(await emailsOn()).toBe(true);
  });

  it("a link for one person never works for another", async () => {
    const ben = await createTestMember(t, { fullName: "Ben Other" });
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    const swapped = token.replace(ana.id, ben.id);
    expect(await unsubscribeFromNotificationEmails(t.ctx, swapped)).toBe(false);
    // Nor one made with another person's address for this account.
    expect(
      await unsubscribeFromNotificationEmails(
        t.ctx,
        unsubscribeToken(t.ctx, { id: ana.id, email: ben.email }, "notifications"),
      ),
    ).toBe(false);
    expect(await emailsOn()).toBe(true);
  });

  it("a link for another kind of mail does not turn notification e-mails off", async () => {
    const digest = unsubscribeToken(t.ctx, ana, "digest" as UnsubscribeKind);
    expect(await unsubscribeFromNotificationEmails(t.ctx, digest)).toBe(false);
    // Its kind relabelled: the signature no longer matches.
    expect(
      await unsubscribeFromNotificationEmails(t.ctx, digest.replace(".digest.", ".notifications.")),
    ).toBe(false);
    expect(await emailsOn()).toBe(true);
  });

  it("rotating the secret voids every link already sent", async () => {
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    const rotated = { ...t.ctx, config: { ...t.ctx.config, unsubscribeSecret: "a-new-secret" } };
    expect(await unsubscribeFromNotificationEmails(rotated, token)).toBe(false);
    expect(await emailsOn()).toBe(true);
  });

  it(`expires after ${UNSUBSCRIBE_LINK_DAYS} days`, async () => {
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    t.clock.advance((UNSUBSCRIBE_LINK_DAYS + 1) * 24 * 60 * 60 * 1000);
    expect(await openPage(token)).toEqual({ status: 400, valid: false });
    expect(await emailsOn()).toBe(true);
  });

  it.each([
    ["a link of the old form (user id and signature)", () => `${ana.id}.c2lnbmF0dXJl`],
    ["garbage", () => "%%%.notifications.zz.!!"],
    ["nothing", () => ""],
  ])("%s shows the page's clear 'not valid' text, not an error", async (_kind, token) => {
    expect(await openPage(token())).toEqual({ status: 400, valid: false });
    expect(await oneClick(token())).toBe(400);
    expect(await emailsOn()).toBe(true);
  });
});
