import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, lastCodeMailedTo, lastMailTo } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { mailOutbox, user, verificationCodes } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import {
  CODE_TTL_MS,
  generateCode,
  issueCode,
  issueEmailCode,
  MAX_CODE_ATTEMPTS,
  verifyCode,
  verifyEmailCode,
} from "./codes";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ou = { id: "ou", name: "OU", generic: false };
const MINUTE = 60_000;

async function codeRows(userId: string) {
  return t.ctx.db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, "email")));
}

async function isVerified(userId: string): Promise<boolean> {
  const [row] = await t.ctx.db.select({ verified: user.verified }).from(user).where(eq(user.id, userId));
  return row?.verified ?? false;
}

/** A code that is surely not the live one. */
function wrongCode(code: string): string {
  return code === "1234" ? "4321" : "1234";
}

describe("verification codes (spec 1 §3, §5, §9)", () => {
  it("draws codes from 1000 to 9999", () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    expect(Math.min(...codes)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...codes)).toBeLessThanOrEqual(9999);
    expect(new Set(codes).size).toBeGreaterThan(1000);
  });

  it("writes the code and its mail together at sign-up: the code is the mail's only 4-digit number", async () => {
    const wakesBefore = t.wakes.count;
    const student = await createTestUser(t);
    const [row] = await codeRows(student.id);
    expect(row).toBeDefined();
    expect(row?.target).toBe(student.email);
    expect(row?.expiresAt.getTime()).toBe(t.clock.now().getTime() + CODE_TTL_MS);
    const mail = await lastMailTo(t, student.email, "verification-code");
    expect(mail.status).toBe("pending");
    expect(mail.expiresAt?.getTime()).toBe(row?.expiresAt.getTime());
    expect(mail.text).toContain("Codes expire after two hours.");
    // docs/contract.md 'Mail': the code is the only 4-digit number of the mail.
    const numbers = `${mail.subject}\n${mail.text}\n${mail.html}`.match(/(?<!\d)\d{4}(?!\d)/g) ?? [];
    expect(new Set(numbers)).toEqual(new Set([String(row?.code)]));
    expect(await lastCodeMailedTo(t, student.email)).toBe(String(row?.code));
    expect(t.wakes.count).toBeGreaterThan(wakesBefore);

    // The worker delivers it through the mail seam.
    await deliverDueMail(t.ctx);
    expect(
      t.mail.sent.some((sent) => sent.to === student.email && sent.text.includes(String(row?.code))),
    ).toBe(true);
  });

  it("rejects a wrong code with the spec's message and counts the try", async () => {
    const student = await createTestUser(t);
    const code = await lastCodeMailedTo(t, student.email);
    await expect(verifyEmailCode(t.ctx, student.id, wrongCode(code))).rejects.toMatchObject({
      code: "code-incorrect",
      message: "Your code was incorrect. Please try again.",
    });
    const [row] = await codeRows(student.id);
    expect(row?.failedAttempts).toBe(1);
    expect(await isVerified(student.id)).toBe(false);
  });

  it("verifies with the right code: verified becomes true and the code is deleted", async () => {
    const student = await createTestUser(t);
    const code = await lastCodeMailedTo(t, student.email);
    await verifyEmailCode(t.ctx, student.id, code);
    expect(await isVerified(student.id)).toBe(true);
    expect(await codeRows(student.id)).toHaveLength(0);
    // Used once: the same code does not work again.
    await expect(verifyEmailCode(t.ctx, student.id, code)).rejects.toMatchObject({ code: "code-incorrect" });
  });

  it("expires a code after 2 hours", async () => {
    const student = await createTestUser(t);
    const code = await lastCodeMailedTo(t, student.email);
    t.clock.advance(CODE_TTL_MS);
    await expect(verifyEmailCode(t.ctx, student.id, code)).rejects.toMatchObject({
      message: "Your code was incorrect. Please try again.",
    });
    expect(await isVerified(student.id)).toBe(false);
  });

  it("accepts a code just before its 2 hours are up", async () => {
    const student = await createTestUser(t);
    const code = await lastCodeMailedTo(t, student.email);
    t.clock.advance(CODE_TTL_MS - 1000);
    await verifyEmailCode(t.ctx, student.id, code);
    expect(await isVerified(student.id)).toBe(true);
  });

  it("kills a code after 5 wrong tries: even the right code then fails until a new one is sent", async () => {
    const student = await createTestUser(t);
    const code = await lastCodeMailedTo(t, student.email);
    for (let attempt = 1; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      await expect(verifyEmailCode(t.ctx, student.id, wrongCode(code))).rejects.toMatchObject({
        code: "code-incorrect",
      });
    }
    await expect(verifyEmailCode(t.ctx, student.id, wrongCode(code))).rejects.toMatchObject({
      code: "code-dead",
      message: "Too many incorrect tries. Send a new code.",
    });
    await expect(verifyEmailCode(t.ctx, student.id, code)).rejects.toMatchObject({ code: "code-dead" });
    expect(await isVerified(student.id)).toBe(false);

    t.clock.advance(1000);
    await issueEmailCode(t.ctx, student.id, ou);
    const fresh = await lastCodeMailedTo(t, student.email);
    await verifyEmailCode(t.ctx, student.id, fresh);
    expect(await isVerified(student.id)).toBe(true);
  });

  it("replaces the older code when a new one is sent", async () => {
    const student = await createTestUser(t);
    t.clock.advance(1000);
    await issueEmailCode(t.ctx, student.id, ou);
    const rows = await codeRows(student.id);
    expect(rows).toHaveLength(1);
    expect(String(rows[0]?.code)).toBe(await lastCodeMailedTo(t, student.email));
  });

  it("mails at most 3 codes per address per hour, and writes nothing when refusing", async () => {
    const student = await createTestUser(t); // the first code mail
    t.clock.advance(MINUTE);
    await issueEmailCode(t.ctx, student.id, ou);
    t.clock.advance(MINUTE);
    await issueEmailCode(t.ctx, student.id, ou);
    const liveCode = await lastCodeMailedTo(t, student.email);
    t.clock.advance(MINUTE);
    await expect(issueEmailCode(t.ctx, student.id, ou)).rejects.toMatchObject({
      code: "too-many-mails",
      message: "Too many codes requested. Try again in an hour.",
    });
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, student.email));
    expect(mails).toHaveLength(3);
    // The refused request left the live code alone.
    await verifyEmailCode(t.ctx, student.id, liveCode);
    expect(await isVerified(student.id)).toBe(true);
  });

  it("allows a new code once the hour has passed", async () => {
    const student = await createTestUser(t);
    t.clock.advance(MINUTE);
    await issueEmailCode(t.ctx, student.id, ou);
    t.clock.advance(MINUTE);
    await issueEmailCode(t.ctx, student.id, ou);
    await expect(issueEmailCode(t.ctx, student.id, ou)).rejects.toMatchObject({ code: "too-many-mails" });
    t.clock.advance(60 * MINUTE);
    await issueEmailCode(t.ctx, student.id, ou);
    const code = await lastCodeMailedTo(t, student.email);
    await verifyEmailCode(t.ctx, student.id, code);
    expect(await isVerified(student.id)).toBe(true);
  });

  it("keeps purposes apart: a school-email code does not verify the sign-up e-mail", async () => {
    const student = await createTestUser(t);
    const emailCode = await lastCodeMailedTo(t, student.email);
    const school = `${student.id.slice(0, 8).toLowerCase()}@ou.edu`;
    t.clock.advance(1000);
    await issueCode(t.ctx, { userId: student.id, purpose: "school_email", target: school, campus: ou });
    const schoolCode = await lastCodeMailedTo(t, school);
    let proven: string | null = null;
    await verifyCode(
      t.ctx,
      { userId: student.id, purpose: "school_email", code: schoolCode },
      async (_tx, p) => {
        proven = p.target;
      },
    );
    expect(proven).toBe(school);
    expect(await isVerified(student.id)).toBe(false);
    await verifyEmailCode(t.ctx, student.id, emailCode);
    expect(await isVerified(student.id)).toBe(true);
  });

  it("refuses to send a code to an account that is already verified", async () => {
    const student = await createTestUser(t, { verified: true });
    await expect(issueEmailCode(t.ctx, student.id, ou)).rejects.toMatchObject({ code: "already-verified" });
  });
});
