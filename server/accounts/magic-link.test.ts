import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFrom, createTestUser, requestHeaders, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { account, mailOutbox, user } from "../db/schema";
import { isPublicAuthPath } from "./auth";
import { ACCOUNT_MESSAGES } from "./errors.shared";
import {
  completeMagicLink,
  MAGIC_LINK_MAIL_KIND,
  MAGIC_LINK_TTL_MS,
  MAX_MAGIC_LINK_MAILS_PER_HOUR,
  requestClaimLink,
  requestSignInLink,
  requestSignUpLink,
} from "./magic-link";
import { getViewerFromHeaders } from "./viewer";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  // better-auth stamps token and session expiry with the real time; start our clock there.
  t.clock.set(new Date());
});
afterAll(() => t.close());

const UT_ORIGIN = "http://ut.localhost:4106";
const utRequest = () => ({
  campus: { id: "ut", name: "UT" },
  campusOrigin: UT_ORIGIN,
  // Sign-ups per address are counted only with an address (decision 0127; tested on its own).
  clientIp: null,
  headers: requestHeaders(),
});

async function linkMails(email: string) {
  return t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email.toLowerCase()), eq(mailOutbox.kind, MAGIC_LINK_MAIL_KIND)));
}

/** The link in the newest link mail to an address, as the student would open it. */
async function mailedLink(email: string): Promise<URL> {
  const mails = await linkMails(email);
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no link mail to ${email}`);
  const found = mail.text.match(/https?:\/\/\S+\/login\/sent\?\S+/)?.[0];
  if (!found) throw new Error(`no /login/sent link in:\n${mail.text}`);
  return new URL(found);
}

function open(link: URL, campusId = "ut") {
  return completeMagicLink(
    t.ctx,
    t.auth,
    { token: link.searchParams.get("token") ?? "", email: link.searchParams.get("email") ?? "" },
    { campusId, headers: requestHeaders() },
  );
}

async function userByEmail(email: string) {
  const [row] = await t.ctx.db.select().from(user).where(eq(user.email, email.toLowerCase()));
  return row ?? null;
}

describe("requestSignInLink (spec 1 §2 /login?method=noPassword, §4 'Magic link')", () => {
  it("queues a link mail in the outbox, pointing at the campus's site, and wakes the mail worker", async () => {
    const student = await createTestUser(t, { verified: true });
    const wakesBefore = t.wakes.count;
    const sent = await requestSignInLink(t.ctx, t.auth, { email: student.email.toUpperCase() }, utRequest());
    expect(sent).toEqual({ email: student.email, first: null, last: null });

    const [mail] = await linkMails(student.email);
    expect(mail).toMatchObject({ campusId: "ut", subject: "Your UT Buy / Sell sign-in link" });
    expect(mail?.expiresAt?.getTime()).toBe(t.clock.now().getTime() + MAGIC_LINK_TTL_MS);
    const link = await mailedLink(student.email);
    expect(link.origin).toBe(UT_ORIGIN);
    expect(link.pathname).toBe("/login/sent");
    expect(link.searchParams.get("email")).toBe(student.email);
    expect(link.searchParams.get("token")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(link.searchParams.has("first")).toBe(false);
    expect(t.wakes.count).toBe(wakesBefore + 1);
  });

  it("refuses an address without an account, and mails nothing", async () => {
    const email = uniqueEmail("nobody");
    await expect(requestSignInLink(t.ctx, t.auth, { email }, utRequest())).rejects.toMatchObject({
      code: "user-not-found",
      message: ACCOUNT_MESSAGES.userNotFound,
    });
    expect(await linkMails(email)).toHaveLength(0);
  });

  it("refuses a banned account with 'Account has been banned' (spec 1 §6)", async () => {
    const banned = await createTestUser(t, { verified: true, banned: true });
    await expect(
      requestSignInLink(t.ctx, t.auth, { email: banned.email }, utRequest()),
    ).rejects.toMatchObject({ code: "banned", message: "Account has been banned" });
    expect(await linkMails(banned.email)).toHaveLength(0);
  });

  it("checks the e-mail with the login messages", async () => {
    await expect(requestSignInLink(t.ctx, t.auth, { email: "" }, utRequest())).rejects.toMatchObject({
      message: "Email is required.",
    });
    await expect(
      requestSignInLink(t.ctx, t.auth, { email: "not-an-email" }, utRequest()),
    ).rejects.toMatchObject({ message: "Invalid email address!" });
  });

  it("sends at most 3 link mails an hour per address, like codes", async () => {
    const student = await createTestUser(t, { verified: true });
    for (let i = 0; i < MAX_MAGIC_LINK_MAILS_PER_HOUR; i++) {
      await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    }
    await expect(
      requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest()),
    ).rejects.toMatchObject({
      code: "too-many-mails",
      message: "Too many sign-in links requested. Try again in an hour.",
    });
    expect(await linkMails(student.email)).toHaveLength(MAX_MAGIC_LINK_MAILS_PER_HOUR);

    t.clock.advance(60 * 60 * 1000 + 1);
    try {
      await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
      expect(await linkMails(student.email)).toHaveLength(MAX_MAGIC_LINK_MAILS_PER_HOUR + 1);
    } finally {
      t.clock.set(new Date());
    }
  });
});

describe("completeMagicLink (spec 1 §4 'Magic link')", () => {
  it("signs the account in once; the same link a second time fails with 'Failed: Wrong Email.'", async () => {
    const student = await createTestUser(t, { verified: true });
    await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    const link = await mailedLink(student.email);

    const signedIn = await open(link);
    expect(signedIn).toMatchObject({ userId: student.id, verified: true, registered: false });
    const viewer = await getViewerFromHeaders(
      t.ctx,
      t.auth,
      requestHeaders({ cookie: cookieFrom(signedIn.headers) }),
    );
    expect(viewer?.id).toBe(student.id);

    await expect(open(link)).rejects.toMatchObject({
      code: "invalid-token",
      message: "Failed: Wrong Email.",
    });
  });

  it("fails for another e-mail than the one the link was sent to, and for a made-up token", async () => {
    const student = await createTestUser(t, { verified: true });
    await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    const link = await mailedLink(student.email);
    const other = new URL(link);
    other.searchParams.set("email", uniqueEmail("someone-else"));
    await expect(open(other)).rejects.toMatchObject({ message: "Failed: Wrong Email." });
    const madeUp = new URL(link);
    madeUp.searchParams.set("token", "A".repeat(32));
    await expect(open(madeUp)).rejects.toMatchObject({ message: "Failed: Wrong Email." });
    // The real link still works.
    await expect(open(link)).resolves.toMatchObject({ userId: student.id });
  });

  it("fails once the link is older than an hour", async () => {
    const student = await createTestUser(t, { verified: true });
    await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    const link = await mailedLink(student.email);
    // The token's expiry was stamped with the real time, a moment after our clock was last set.
    t.clock.advance(MAGIC_LINK_TTL_MS + 60_000);
    try {
      await expect(open(link)).rejects.toMatchObject({ message: "Failed: Wrong Email." });
    } finally {
      t.clock.set(new Date());
    }
  });

  it("refuses an account banned after the link was sent", async () => {
    const student = await createTestUser(t, { verified: true });
    await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    await t.ctx.db.update(user).set({ banned: true }).where(eq(user.id, student.id));
    await expect(open(await mailedLink(student.email))).rejects.toMatchObject({
      code: "banned",
      message: "Account has been banned",
    });
  });

  it("verifies an unverified account: opening the link proves the address", async () => {
    const student = await createTestUser(t);
    expect((await userByEmail(student.email))?.verified).toBe(false);
    await requestSignInLink(t.ctx, t.auth, { email: student.email }, utRequest());
    await expect(open(await mailedLink(student.email))).resolves.toMatchObject({ verified: true });
    expect((await userByEmail(student.email))?.verified).toBe(true);
  });
});

describe("sign-up by link (spec 1 §4 'Magic link', §5)", () => {
  it("mails a link carrying first and last name; opening it creates the verified account on the campus", async () => {
    const email = uniqueEmail("morgan");
    const sent = await requestSignUpLink(
      t.ctx,
      t.auth,
      { fullName: "  morgan   LEE ", email, terms: true },
      utRequest(),
    );
    expect(sent).toEqual({ email, first: "morgan", last: "LEE" });
    expect(await userByEmail(email)).toBeNull();

    const [mail] = await linkMails(email);
    expect(mail?.subject).toBe("Finish signing up for UT Buy / Sell");
    const link = await mailedLink(email);
    expect(link.searchParams.get("first")).toBe("morgan");
    expect(link.searchParams.get("last")).toBe("LEE");

    const signedIn = await open(link);
    expect(signedIn.registered).toBe(true);
    const created = await userByEmail(email);
    expect(created).toMatchObject({
      id: signedIn.userId,
      firstName: "Morgan",
      lastName: "L.",
      name: "Morgan L.",
      campusId: "ut",
      verified: true,
      schoolVerified: false,
      emailNotifications: true,
      availableFunds: 0,
      banned: false,
    });
    expect(created?.username).toMatch(/^morganl(-\d+)?$/);
    // No password: the account signs in by link (or sets one with Forgot password).
    const credentials = await t.ctx.db.select().from(account).where(eq(account.userId, signedIn.userId));
    expect(credentials).toHaveLength(0);
    const viewer = await getViewerFromHeaders(
      t.ctx,
      t.auth,
      requestHeaders({ cookie: cookieFrom(signedIn.headers) }),
    );
    expect(viewer?.id).toBe(signedIn.userId);
  });

  it("gives the next free username, -2 and on", async () => {
    const first = uniqueEmail("casey1");
    const second = uniqueEmail("casey2");
    for (const email of [first, second]) {
      await requestSignUpLink(t.ctx, t.auth, { fullName: "Casey Zhou", email, terms: true }, utRequest());
      await open(await mailedLink(email));
    }
    const usernames = [(await userByEmail(first))?.username, (await userByEmail(second))?.username];
    expect(usernames[1]).toBe(usernames[0] === "caseyz" ? "caseyz-2" : expect.stringMatching(/^caseyz-\d+$/));
  });

  it("never creates a reserved username: 'Medi A' opens as media-2 (decision 0125)", async () => {
    const email = uniqueEmail("media");
    await requestSignUpLink(t.ctx, t.auth, { fullName: "Medi A", email, terms: true }, utRequest());
    await open(await mailedLink(email));
    expect((await userByEmail(email))?.username).toBe("media-2");
  });

  it("counts sign-up links against the address's 25 sign-ups in 5 minutes (decisions 0127, 0446)", async () => {
    const ip = "198.51.100.210";
    const ask = (email: string) =>
      requestSignUpLink(
        t.ctx,
        t.auth,
        { fullName: "Sam Hill", email, terms: true },
        { ...utRequest(), clientIp: ip },
      );
    for (let i = 0; i < 25; i++) await ask(uniqueEmail("many"));
    const refused = uniqueEmail("many");
    await expect(ask(refused)).rejects.toMatchObject({
      code: "too-many-sign-ups",
      message: "Too many sign-ups from this network. Try again in a few minutes.",
    });
    expect(await linkMails(refused)).toHaveLength(0);
  });

  it("refuses a taken address, a banned address and the register form's name problems", async () => {
    const taken = await createTestUser(t, { verified: true });
    await expect(
      requestSignUpLink(
        t.ctx,
        t.auth,
        { fullName: "Casey Zhou", email: taken.email, terms: true },
        utRequest(),
      ),
    ).rejects.toMatchObject({
      code: "email-taken",
      message: "Email has already been taken.",
      field: "email",
    });

    const banned = await createTestUser(t, { banned: true });
    await expect(
      requestSignUpLink(
        t.ctx,
        t.auth,
        { fullName: "Casey Zhou", email: banned.email, terms: true },
        utRequest(),
      ),
    ).rejects.toMatchObject({ code: "banned", message: "Account has been banned" });

    const email = uniqueEmail("casey");
    await expect(
      requestSignUpLink(t.ctx, t.auth, { fullName: "Casey", email, terms: true }, utRequest()),
    ).rejects.toMatchObject({ message: "Full name is required" });
    await expect(
      requestSignUpLink(t.ctx, t.auth, { fullName: "Casey Zh0u", email, terms: true }, utRequest()),
    ).rejects.toMatchObject({ message: "Your Name is Invalid." });
    expect(await linkMails(email)).toHaveLength(0);
  });

  it("signs in instead when the account was created meanwhile (two links opened)", async () => {
    const email = uniqueEmail("twice");
    await requestSignUpLink(t.ctx, t.auth, { fullName: "Riley Park", email, terms: true }, utRequest());
    const firstLink = await mailedLink(email);
    await requestSignUpLink(t.ctx, t.auth, { fullName: "Riley Park", email, terms: true }, utRequest());
    const secondLink = await mailedLink(email);
    expect(secondLink.searchParams.get("token")).not.toBe(firstLink.searchParams.get("token"));

    const created = await open(secondLink);
    const again = await open(firstLink);
    expect(again).toMatchObject({ userId: created.userId, registered: false });
  });
});

describe("requestClaimLink (spec 2 §2 'Claim this account', decision 0126)", () => {
  async function usernameOf(id: string) {
    const [row] = await t.ctx.db.select({ username: user.username }).from(user).where(eq(user.id, id));
    if (!row) throw new Error(`no user ${id}`);
    return row.username;
  }

  it("mails a sign-in link to the unverified account's own address and answers without it", async () => {
    const owner = await createTestUser(t);
    const username = await usernameOf(owner.id);
    const claimed = await requestClaimLink(t.ctx, t.auth, username.toUpperCase(), utRequest());
    // What the visitor's response is made of: the profile's username, never the address.
    expect(claimed).toEqual({ username });
    expect(JSON.stringify(claimed)).not.toContain(owner.email);

    const [mail] = await linkMails(owner.email);
    expect(mail?.subject).toBe("Your UT Buy / Sell sign-in link");
    const signedIn = await open(await mailedLink(owner.email));
    expect(signedIn).toMatchObject({ userId: owner.id, registered: false });
  });

  it("refuses verified, banned and unknown profiles with one message, and mails nothing", async () => {
    const verified = await createTestUser(t, { verified: true });
    const banned = await createTestUser(t, { banned: true });
    for (const username of [await usernameOf(verified.id), await usernameOf(banned.id), "nobody-here"]) {
      await expect(requestClaimLink(t.ctx, t.auth, username, utRequest())).rejects.toMatchObject({
        code: "not-claimable",
        message: ACCOUNT_MESSAGES.notClaimable,
      });
    }
    expect(await linkMails(verified.email)).toHaveLength(0);
    expect(await linkMails(banned.email)).toHaveLength(0);
  });

  it("shares the 3 link mails an hour of the account's address", async () => {
    const owner = await createTestUser(t);
    const username = await usernameOf(owner.id);
    for (let i = 0; i < MAX_MAGIC_LINK_MAILS_PER_HOUR; i++) {
      await requestClaimLink(t.ctx, t.auth, username, utRequest());
    }
    await expect(requestClaimLink(t.ctx, t.auth, username, utRequest())).rejects.toMatchObject({
      code: "too-many-mails",
    });
    expect(await linkMails(owner.email)).toHaveLength(MAX_MAGIC_LINK_MAILS_PER_HOUR);
  });
});

describe("the magic-link endpoints stay private (decision 0060)", () => {
  it("does not expose the plugin's endpoints over HTTP", () => {
    expect(isPublicAuthPath("/sign-in/magic-link")).toBe(false);
    expect(isPublicAuthPath("/magic-link/verify")).toBe(false);
  });
});
