import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestUser, lastMailTo, requestHeaders, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import {
  isPasswordResetTokenValid,
  RESET_TOKEN_TTL_MS,
  requestPasswordReset,
  resetPassword,
  signIn,
} from "./accounts";
import { ACCOUNT_MESSAGES } from "./errors.shared";
import { getViewerFromHeaders } from "./viewer";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  // better-auth checks session and reset-token expiry against the real time; start our clock there.
  t.clock.set(new Date());
});
afterAll(() => t.close());

const LOCKOUT =
  "Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later.";
const ou = { id: "ou", name: "OU" };

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

describe("password reset (spec 1 §2 /forgotpassword, §5)", () => {
  const origin = "http://ou.localhost:3000";

  it("reports an unknown address so the screen can say 'User not found, try again!'", async () => {
    const result = await requestPasswordReset(t.ctx, uniqueEmail("ghost"), {
      campus: ou,
      campusOrigin: origin,
    });
    expect(result).toEqual({ status: "not-found" });
    expect(ACCOUNT_MESSAGES.resetUserNotFound).toBe("User not found, try again!");
  });

  it("mails a link; the new password works, the old one no longer does, and sessions end", async () => {
    const student = await createTestUser(t, { verified: true });
    expect(await viewerOf(student.cookie)).not.toBeNull();
    const wakes = t.wakes.count;
    const result = await requestPasswordReset(t.ctx, student.email.toUpperCase(), {
      campus: ou,
      campusOrigin: origin,
    });
    expect(result).toEqual({ status: "sent", email: student.email });
    expect(t.wakes.count).toBe(wakes + 1);

    const mail = await lastMailTo(t, student.email, "password-reset");
    const link = mail.text.match(/http:\/\/ou\.localhost:3000\/reset-password\?token=[\w%-]+/)?.[0];
    expect(link).toBeDefined();
    const token = decodeURIComponent(new URL(link ?? "").searchParams.get("token") ?? "");
    expect(await isPasswordResetTokenValid(t.ctx, token)).toBe(true);

    await resetPassword(t.ctx, t.auth, { token, password: "brand-new-1", confirmPassword: "brand-new-1" });
    expect(await viewerOf(student.cookie)).toBeNull();
    await expect(login(student.email, student.password)).rejects.toMatchObject({
      message: "Wrong password!",
    });
    expect((await login(student.email, "brand-new-1")).userId).toBe(student.id);
    // A link works once.
    expect(await isPasswordResetTokenValid(t.ctx, token)).toBe(false);
    await expect(
      resetPassword(t.ctx, t.auth, { token, password: "another-1", confirmPassword: "another-1" }),
    ).rejects.toMatchObject({ code: "invalid-token" });
  });

  it("checks the new password with the password-change messages", async () => {
    const cases = [
      [{ password: "", confirmPassword: "" }, "Please enter a new password"],
      [{ password: "abc", confirmPassword: "abc" }, "Passwords must be 6+ characters"],
      [{ password: "secret123", confirmPassword: "" }, "Must re-enter new password"],
      [{ password: "secret123", confirmPassword: "secret124" }, "Passwords do not match"],
    ] as const;
    for (const [input, message] of cases) {
      await expect(resetPassword(t.ctx, t.auth, { token: "x", ...input })).rejects.toMatchObject({ message });
    }
  });

  it("lets only the newest link work, and not after an hour", async () => {
    const student = await createTestUser(t);
    await requestPasswordReset(t.ctx, student.email, { campus: ou, campusOrigin: origin });
    const firstMail = await lastMailTo(t, student.email, "password-reset");
    t.clock.advance(1000);
    await requestPasswordReset(t.ctx, student.email, { campus: ou, campusOrigin: origin });
    const secondMail = await lastMailTo(t, student.email, "password-reset");
    const tokenOf = (text: string) =>
      decodeURIComponent(
        new URL(text.match(/http\S+reset-password\?token=[\w%-]+/)?.[0] ?? "").searchParams.get("token") ??
          "",
      );
    expect(await isPasswordResetTokenValid(t.ctx, tokenOf(firstMail.text))).toBe(false);
    expect(await isPasswordResetTokenValid(t.ctx, tokenOf(secondMail.text))).toBe(true);
    t.clock.advance(RESET_TOKEN_TTL_MS);
    expect(await isPasswordResetTokenValid(t.ctx, tokenOf(secondMail.text))).toBe(false);
    await expect(
      resetPassword(t.ctx, t.auth, {
        token: tokenOf(secondMail.text),
        password: "brand-new-1",
        confirmPassword: "brand-new-1",
      }),
    ).rejects.toMatchObject({ code: "invalid-token", message: "This reset link is invalid or has expired." });
  });

  it("mails at most 3 reset links per address per hour", async () => {
    const student = await createTestUser(t);
    for (let n = 0; n < 3; n++) {
      await requestPasswordReset(t.ctx, student.email, { campus: ou, campusOrigin: origin });
    }
    await expect(
      requestPasswordReset(t.ctx, student.email, { campus: ou, campusOrigin: origin }),
    ).rejects.toMatchObject({ message: "Too many reset emails requested. Try again in an hour." });
  });

  it("lifts a login lockout (spec 1 §8: restore it by resetting your password)", async () => {
    const student = await createTestUser(t);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(student.email, "wrong-password").catch(() => {});
    }
    await expect(login(student.email, student.password)).rejects.toMatchObject({ message: LOCKOUT });
    await requestPasswordReset(t.ctx, student.email, { campus: ou, campusOrigin: origin });
    const mail = await lastMailTo(t, student.email, "password-reset");
    const token = decodeURIComponent(
      new URL(mail.text.match(/http\S+reset-password\?token=[\w%-]+/)?.[0] ?? "").searchParams.get("token") ??
        "",
    );
    await resetPassword(t.ctx, t.auth, { token, password: "brand-new-1", confirmPassword: "brand-new-1" });
    expect((await login(student.email, "brand-new-1")).userId).toBe(student.id);
  });
});
