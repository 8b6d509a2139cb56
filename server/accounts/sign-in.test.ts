import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cookieFrom, createTestUser, requestHeaders, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { session } from "../db/schema";
import { signIn, signOut } from "./accounts";
import { isPublicAuthPath } from "./auth";
import { ACCOUNT_THROTTLE, ADDRESS_THROTTLE, PASSWORD_TRIES, PASSWORD_TRIES_DAILY } from "./throttle";
import { getViewerFromHeaders } from "./viewer";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  // better-auth checks session and reset-token expiry against the real time; start our clock there.
  t.clock.set(new Date());
});
afterAll(() => t.close());

const MINUTE = 60_000;
const LOCKOUT =
  "Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later.";
async function viewerOf(cookie: string) {
  return getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie }));
}

// Each test signs in from its own address, so address counters of one test never reach another.
let testNumber = 0;
let defaultIp = "203.0.113.0";
beforeEach(() => {
  testNumber++;
  defaultIp = `203.0.113.${testNumber}`;
});

function login(email: string, password: string, ip: string | null = defaultIp) {
  return signIn(
    t.ctx,
    t.auth,
    { email, password },
    { clientIp: ip, headers: requestHeaders(ip ? { ip } : {}) },
  );
}

describe("signIn and signOut (spec 1 §5 'Login', §8)", () => {
  it("tells an unknown e-mail from a wrong password", async () => {
    const student = await createTestUser(t);
    await expect(login(uniqueEmail("nobody"), "secret123")).rejects.toMatchObject({
      code: "user-not-found",
      message: "Incorrect. Please try again.",
    });
    await expect(login(student.email, "not-my-password")).rejects.toMatchObject({
      code: "wrong-password",
      message: "Wrong password!",
    });
  });

  it("checks a password against a hash for an unknown e-mail too, so both answers cost the same (decision 0447)", async () => {
    // The messages differ (spec 1 §5), but the time to answer must not tell an account apart: the
    // unknown address goes through the same password hasher better-auth checks real ones with.
    const student = await createTestUser(t);
    const hasher = (await t.auth.$context).password;
    const verify = vi.spyOn(hasher, "verify");
    try {
      await expect(login(student.email, "not-my-password")).rejects.toMatchObject({ code: "wrong-password" });
      expect(verify.mock.calls.map(([call]) => call.password)).toEqual(["not-my-password"]);
      verify.mockClear();
      await expect(login(uniqueEmail("nobody"), "a-guess-123")).rejects.toMatchObject({
        code: "user-not-found",
      });
      expect(verify.mock.calls.map(([call]) => call.password)).toEqual(["a-guess-123"]);
      // The hash checked is a real one of that hasher: it answers false, it does not throw early.
      expect(await verify.mock.results[0]?.value).toBe(false);
    } finally {
      verify.mockRestore();
    }
  });

  it("opens a new session at each sign-in and deletes it at sign-out", async () => {
    const student = await createTestUser(t, { verified: true });
    const first = await login(student.email.toUpperCase(), student.password);
    const second = await login(student.email, student.password);
    expect(first.userId).toBe(student.id);
    expect(first.verified).toBe(true);
    const firstCookie = cookieFrom(first.headers);
    const secondCookie = cookieFrom(second.headers);
    expect(firstCookie).not.toBe(secondCookie);
    expect((await viewerOf(firstCookie))?.id).toBe(student.id);

    const sessionsBefore = await t.ctx.db.select().from(session).where(eq(session.userId, student.id));
    const cleared = await signOut(t.auth, requestHeaders({ cookie: firstCookie }));
    expect(cleared.getSetCookie().join("\n")).toMatch(/session_token=;/);
    const sessionsAfter = await t.ctx.db.select().from(session).where(eq(session.userId, student.id));
    expect(sessionsAfter).toHaveLength(sessionsBefore.length - 1);
    expect(await viewerOf(firstCookie)).toBeNull();
    // Only that session ended.
    expect((await viewerOf(secondCookie))?.id).toBe(student.id);
  });

  it("refuses a banned account even with the right password", async () => {
    const student = await createTestUser(t, { banned: true });
    await expect(login(student.email, student.password)).rejects.toMatchObject({
      code: "banned",
      message: "Account has been banned",
    });
    // Its old session no longer counts either.
    expect(await viewerOf(student.cookie)).toBeNull();
  });

  it("validates like the form", async () => {
    await expect(login("", "x")).rejects.toMatchObject({ message: "Email is required." });
    await expect(login("a@b", "x")).rejects.toMatchObject({ message: "Invalid email address!" });
    await expect(login(uniqueEmail(), "")).rejects.toMatchObject({ message: "Password is required." });
  });

  it("locks an account for 15 minutes after 5 wrong passwords from an address, checked before the password", async () => {
    const student = await createTestUser(t);
    const ip = "198.51.100.1";
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(login(student.email, "wrong-password", ip)).rejects.toMatchObject({
        message: "Wrong password!",
      });
    }
    await expect(login(student.email, "wrong-password", ip)).rejects.toMatchObject({
      code: "too-many-requests",
      message: LOCKOUT,
    });
    // The right password does not help while locked; the lock is that address's (decision 0127).
    await expect(login(student.email, student.password, ip)).rejects.toMatchObject({ message: LOCKOUT });
    t.clock.advance(14 * MINUTE);
    await expect(login(student.email, student.password, ip)).rejects.toMatchObject({ message: LOCKOUT });
    t.clock.advance(MINUTE);
    const signedIn = await login(student.email, student.password, ip);
    expect(signedIn.userId).toBe(student.id);
  });

  it("forgets old failures: a success resets the account's count, and failures spread beyond 15 minutes do not lock", async () => {
    const student = await createTestUser(t);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(login(student.email, "wrong-password")).rejects.toMatchObject({ code: "wrong-password" });
    }
    await login(student.email, student.password);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(login(student.email, "wrong-password")).rejects.toMatchObject({ code: "wrong-password" });
    }
    t.clock.advance(16 * MINUTE);
    await expect(login(student.email, "wrong-password")).rejects.toMatchObject({ code: "wrong-password" });
    await login(student.email, student.password);
  });

  it("lets the owner sign in from their own address while someone else's guesses lock theirs (decision 0127)", async () => {
    const student = await createTestUser(t);
    const attacker = "198.51.100.66";
    const owner = "198.51.100.67";
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(student.email, "wrong-password", attacker).catch(() => {});
    }
    await expect(login(student.email, student.password, attacker)).rejects.toMatchObject({
      message: LOCKOUT,
    });
    expect((await login(student.email, student.password, owner)).userId).toBe(student.id);
    // The owner's own typos count for the owner's address only.
    await expect(login(student.email, "typo", owner)).rejects.toMatchObject({ code: "wrong-password" });
  });

  it("never lets one address lock the owner out, however long it keeps guessing (decision 0127)", async () => {
    const student = await createTestUser(t);
    const attacker = "198.51.100.68";
    let refusedUnchecked = 0;
    // Two days of guessing from one address, a try every 5 minutes (under the 15-minute lock).
    const tries = (2 * 24 * 60) / 5;
    try {
      for (let i = 0; i < tries; i++) {
        const answer = await login(student.email, "guess", attacker).catch(
          (error: { code?: string }) => error,
        );
        if (answer && "code" in answer && answer.code === "too-many-requests") refusedUnchecked++;
        t.clock.advance(5 * MINUTE);
      }
      // Nearly all were refused before the password was looked at: that address guesses slowly.
      expect(refusedUnchecked).toBeGreaterThan(tries - 2 * 2 * PASSWORD_TRIES_DAILY.maxFailures);
      expect((await login(student.email, student.password, "198.51.100.69")).userId).toBe(student.id);
    } finally {
      t.clock.set(new Date());
    }
    // 576 sign-in attempts: seconds alone, more on a busy machine.
  }, 90_000);

  it("locks the account everywhere when many addresses guess its password (slow guessing, decision 0127)", async () => {
    const student = await createTestUser(t);
    const addresses = ACCOUNT_THROTTLE.maxFailures / PASSWORD_TRIES_DAILY.maxFailures;
    for (let a = 0; a < addresses; a++) {
      for (let attempt = 1; attempt <= PASSWORD_TRIES_DAILY.maxFailures; attempt++) {
        await login(student.email, "guess", `192.0.2.${100 + a}`).catch(() => {});
        // A pause past the 15-minute lock after each burst, so each address reaches its 20 a day.
        if (attempt % PASSWORD_TRIES.maxFailures === 0) t.clock.advance(16 * MINUTE);
      }
    }
    await expect(login(student.email, student.password, "192.0.2.200")).rejects.toMatchObject({
      code: "too-many-requests",
      message: LOCKOUT,
    });
    t.clock.advance(ACCOUNT_THROTTLE.lockMs);
    try {
      expect((await login(student.email, student.password, "192.0.2.200")).userId).toBe(student.id);
    } finally {
      t.clock.set(new Date());
    }
  }, 90_000);

  it("sets the sign-in limits: 5 in 15 minutes and 20 a day per account and address, 100 a day per account", () => {
    expect(PASSWORD_TRIES).toEqual({ maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE });
    expect(PASSWORD_TRIES_DAILY).toEqual({
      maxFailures: 20,
      windowMs: 24 * 60 * MINUTE,
      lockMs: 24 * 60 * MINUTE,
    });
    expect(ACCOUNT_THROTTLE).toEqual({ maxFailures: 100, windowMs: 24 * 60 * MINUTE, lockMs: 60 * MINUTE });
  });

  it("sets the address limit at 50 failures in 15 minutes", () => {
    expect(ADDRESS_THROTTLE).toEqual({ maxFailures: 50, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE });
  });

  it("locks a client address after 50 failures within 15 minutes, whatever accounts it tries", async () => {
    const ip = "192.0.2.44";
    const student = await createTestUser(t);
    for (let attempt = 1; attempt < ADDRESS_THROTTLE.maxFailures; attempt++) {
      await expect(login(uniqueEmail("guess"), "whatever", ip)).rejects.toMatchObject({
        code: "user-not-found",
      });
    }
    await expect(login(uniqueEmail("guess"), "whatever", ip)).rejects.toMatchObject({
      code: "too-many-requests",
      message: LOCKOUT,
    });
    // Even a real account with its right password, from that address.
    await expect(login(student.email, student.password, ip)).rejects.toMatchObject({ message: LOCKOUT });
    // Other addresses are not affected.
    expect((await login(student.email, student.password, "192.0.2.45")).userId).toBe(student.id);
    t.clock.advance(15 * MINUTE);
    expect((await login(student.email, student.password, ip)).userId).toBe(student.id);
    // 50 sign-ins, each checking a password against a hash (decision 0447).
  }, 90_000);
});

describe("better-auth over HTTP", () => {
  it("exposes only the endpoints we list: sign-up, sign-in and resets go through our rules", () => {
    expect(isPublicAuthPath("/get-session")).toBe(true);
    expect(isPublicAuthPath("/sign-out")).toBe(true);
    for (const path of [
      "/sign-up/email",
      "/sign-in/email",
      "/request-password-reset",
      "/reset-password",
      "/reset-password/abc",
      "/update-user",
      "/change-email",
      "/change-password",
    ]) {
      expect(isPublicAuthPath(path)).toBe(false);
    }
  });
});
