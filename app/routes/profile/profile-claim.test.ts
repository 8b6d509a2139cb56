import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as loginSentAction, loader as loginSentLoader } from "~/app/routes/auth/login-sent";
import { action as profileAction } from "~/app/routes/profile/profile";
import { MAGIC_LINK_MAIL_KIND } from "~/server/accounts/magic-link";
import { mailOutbox, user } from "~/server/db/schema";
import { createTestUser } from "~/tests/support/factories";
import { createTestContext, type TestContext } from "~/tests/support/test-context";

// Decision 0126: 'Claim this account' answered anonymous visitors with a redirect to
// /login/sent?email=<the unverified user's address>. The link is mailed instead, and no
// part of any response (status, headers, body) carries the address.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(new Date());
});
afterAll(() => t.close());

function context() {
  const campus = t.ctx.campuses.get("ou");
  if (!campus) throw new Error("no campus ou");
  return { app: t.ctx, auth: t.auth, campuses: t.ctx.campuses, campus, nonce: "", clientIp: "203.0.113.7" };
}

/** What an action or loader answered, thrown or returned, as text a visitor could read. */
async function visible(outcome: unknown): Promise<{ status: number; text: string; location: string | null }> {
  if (outcome instanceof Response) {
    const headers = [...outcome.headers.entries()].map(([name, value]) => `${name}: ${value}`).join("\n");
    return {
      status: outcome.status,
      text: `${headers}\n${await outcome.clone().text()}`,
      location: outcome.headers.get("location"),
    };
  }
  const init = (outcome as { init?: ResponseInit | null }).init;
  const headers = new Headers(init?.headers);
  return {
    status: init?.status ?? 200,
    text: `${[...headers.entries()].join("\n")}\n${JSON.stringify(outcome)}`,
    location: headers.get("location"),
  };
}

async function settle<T>(run: () => Promise<T>): Promise<unknown> {
  try {
    return await run();
  } catch (thrown) {
    return thrown;
  }
}

async function usernameOf(id: string): Promise<string> {
  const [row] = await t.ctx.db.select({ username: user.username }).from(user).where(eq(user.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row.username;
}

async function linkMailsTo(email: string) {
  return (await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter(
    (mail) => mail.kind === MAGIC_LINK_MAIL_KIND,
  );
}

function claimRequest(path: string, fields: Record<string, string> = {}) {
  return new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

describe("'Claim this account' from a profile", () => {
  it("mails the link to the account's address and answers the visitor without it", async () => {
    const owner = await createTestUser(t);
    const username = await usernameOf(owner.id);
    const args = {
      request: claimRequest(`/${username}`, { intent: "claim-account" }),
      params: { username },
      context: context(),
    } as unknown as Parameters<typeof profileAction>[0];

    const answer = await visible(await settle(() => profileAction(args)));
    expect(answer.text.toLowerCase()).not.toContain(owner.email);
    expect(answer.text).not.toContain(encodeURIComponent(owner.email));
    expect(answer.location).toBe(`/login/sent?claim=${username}`);
    expect(await linkMailsTo(owner.email)).toHaveLength(1);

    // The page it lands on says where the link went without the address, and sends a new one.
    const page = await settle(() =>
      loginSentLoader({
        request: new Request(`http://localhost${answer.location}`),
        params: {},
        context: context(),
      } as unknown as Parameters<typeof loginSentLoader>[0]),
    );
    expect(page).toEqual({ email: null, claim: username, registering: false });

    const again = await visible(
      await settle(() =>
        loginSentAction({
          request: claimRequest(answer.location ?? ""),
          params: {},
          context: context(),
        } as unknown as Parameters<typeof loginSentAction>[0]),
      ),
    );
    expect(again.text.toLowerCase()).not.toContain(owner.email);
    expect(again.location).toBe(`/login/sent?claim=${username}`);
    expect(await linkMailsTo(owner.email)).toHaveLength(2);
  });

  it("refuses a verified profile with a message and mails nothing", async () => {
    const owner = await createTestUser(t, { verified: true });
    const username = await usernameOf(owner.id);
    const args = {
      request: claimRequest(`/${username}`, { intent: "claim-account" }),
      params: { username },
      context: context(),
    } as unknown as Parameters<typeof profileAction>[0];
    const answer = await visible(await settle(() => profileAction(args)));
    expect(answer.status).toBe(404);
    expect(answer.text).toContain("This account can't be claimed.");
    expect(answer.text.toLowerCase()).not.toContain(owner.email);
    expect(await linkMailsTo(owner.email)).toHaveLength(0);
  });
});
