import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLog, ownSession } from "../../tests/support/console";
import { createTestMember, createTestUser, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { bannedEmails, mailOutbox, session, strikes, user } from "../db/schema";
import { INDEFINITELY } from "../moderation/rules.shared";
import { ADMIN_MESSAGES } from "./errors.shared";
import {
  banStudent,
  liftStudent,
  resendStudentCode,
  signOutStudentEverywhere,
  suspendStudent,
  verifyStudentEmail,
} from "./student-actions";
import { getStudentCard, searchStudents } from "./students";

let t: TestContext;
let admin: TestMember;
let moderator: TestMember;
let bystander: TestMember;
let own: { token: string };
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t, { fullName: "Ada Admin" });
  moderator = await createModerator(t, "ou");
  bystander = await createTestMember(t);
  own = await ownSession(t, admin.id, 1);
});
afterAll(() => t.close());

async function row(id: string) {
  const [found] = await t.ctx.db.select().from(user).where(eq(user.id, id));
  if (!found) throw new Error("no user");
  return found;
}

describe("finding a student (decision 0561)", () => {
  it("by exact e-mail, school e-mail, username (with or without @) or id, in any case", async () => {
    const student = await createTestMember(t);
    const stored = await row(student.id);
    for (const q of [
      student.email.toUpperCase(),
      stored.schoolEmail ?? "",
      stored.username,
      `@${stored.username}`,
      student.id,
      `  ${student.email}  `,
    ]) {
      const found = await searchStudents(t.ctx, admin.viewer, { q });
      expect(found.map((match) => match.id)).toEqual([student.id]);
    }
    await expect(searchStudents(t.ctx, admin.viewer, { q: "nobody@example.edu" })).resolves.toEqual([]);
  });

  it("refuses an empty or overlong search, and anyone but a site admin gets the 404", async () => {
    await expect(searchStudents(t.ctx, admin.viewer, { q: " " })).rejects.toMatchObject({
      message: ADMIN_MESSAGES.searchRequired,
    });
    await expect(searchStudents(t.ctx, admin.viewer, { q: "x".repeat(255) })).rejects.toMatchObject({
      message: ADMIN_MESSAGES.searchTooLong,
    });
    for (const who of [moderator.viewer, bystander.viewer, null]) {
      await expect(searchStudents(t.ctx, who, { q: admin.email })).rejects.toMatchObject({ status: 404 });
    }
  });
});

describe("a student's card (decision 0561)", () => {
  it("shows their verification, counts and sessions, never their conversations' content", async () => {
    const student = await createTestMember(t, { fullName: "Card Student" });
    const card = await getStudentCard(t.ctx, admin.viewer, student.id);
    expect(card.student).toMatchObject({
      id: student.id,
      verified: true,
      schoolVerified: true,
      suspended: false,
    });
    expect(card.counts).toMatchObject({ listings: 0, reportsMade: 0, reportsReceived: 0, conversations: 0 });
    expect(card.counts.activeSessions).toBe(1);
    expect(card.sessions).toHaveLength(1);
    expect(Object.keys(card)).not.toContain("messages");
  });

  it("a crafted id is the 404, and so is the card for a moderator or a student", async () => {
    for (const id of ["no-such-account", "x".repeat(65), "'; drop table user; --", 42]) {
      await expect(getStudentCard(t.ctx, admin.viewer, id)).rejects.toMatchObject({ status: 404 });
    }
    for (const who of [moderator.viewer, bystander.viewer, null]) {
      await expect(getStudentCard(t.ctx, who, admin.id)).rejects.toMatchObject({ status: 404 });
    }
  });
});

const reasons = { reasonCode: "scam", reason: "Sold a phone that does not exist." } as const;

describe("the actions on a student (decision 0561)", () => {
  it("each refuses a moderator and a student with the 404 and changes nothing", async () => {
    const student = await createTestUser(t, { verified: false });
    for (const who of [moderator.viewer, bystander.viewer]) {
      const whose = await ownSession(t, who.id, 1);
      // One at a time: a call started before the previous refusal was awaited would reject unheard.
      const calls = [
        () => suspendStudent(t.ctx, who, { studentId: student.id, days: "7", ...reasons }, whose),
        () => banStudent(t.ctx, who, { studentId: student.id, ...reasons }, whose),
        () => liftStudent(t.ctx, who, { studentId: student.id, ...reasons }),
        () => verifyStudentEmail(t.ctx, who, { studentId: student.id, reason: "asked" }),
        () => signOutStudentEverywhere(t.ctx, who, { studentId: student.id, reason: "asked" }, whose),
        () => resendStudentCode(t.ctx, who, { studentId: student.id, reason: "asked" }),
      ];
      for (const call of calls) await expect(call()).rejects.toMatchObject({ status: 404 });
    }
    const after = await row(student.id);
    expect(after).toMatchObject({ verified: false, banned: false, suspendedUntil: null });
    expect(await consoleLog(t, { targetId: student.id })).toEqual([]);
  });

  it("a crafted id is the 404; a missing reason is refused", async () => {
    await expect(
      suspendStudent(t.ctx, admin.viewer, { studentId: "no-such-account", days: "1", ...reasons }, own),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      verifyStudentEmail(t.ctx, admin.viewer, { studentId: bystander.id, reason: "  " }),
    ).rejects.toMatchObject({ field: "reason", message: ADMIN_MESSAGES.reasonRequired });
    await expect(
      verifyStudentEmail(t.ctx, admin.viewer, { studentId: bystander.id, reason: "x".repeat(501) }),
    ).rejects.toMatchObject({ field: "reason", message: ADMIN_MESSAGES.reasonTooLong });
  });

  it("suspend: until the clock says, with a strike, the student's notice and a log row naming the admin", async () => {
    const student = await createTestMember(t);
    const { suspendedUntil } = await suspendStudent(
      t.ctx,
      admin.viewer,
      { studentId: student.id, days: "7", ...reasons },
      own,
    );
    expect(suspendedUntil.getTime()).toBe(t.clock.now().getTime() + 7 * 86_400_000);
    expect((await row(student.id)).suspendedUntil).toEqual(suspendedUntil);
    const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.userId, student.id));
    expect(strike).toMatchObject({
      action: "suspend",
      itemId: null,
      actorId: admin.id,
      publicReason: reasons.reason,
    });
    const [log] = await consoleLog(t, { targetId: student.id });
    expect(log).toMatchObject({
      action: "suspend",
      actorId: admin.id,
      actorRole: "site_admin",
      source: "staff",
      publicReason: reasons.reason,
      campusId: "ou",
    });
    const card = await getStudentCard(t.ctx, admin.viewer, student.id);
    expect(card.student.suspended).toBe(true);
    expect(card.log[0]).toMatchObject({ action: "suspend", actor: expect.stringMatching(/^Ada /), days: 7 });
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, student.email));
    expect(mails.some((mail) => mail.kind === "moderation")).toBe(true);

    await liftStudent(t.ctx, admin.viewer, { studentId: student.id, ...reasons });
    expect((await row(student.id)).suspendedUntil).toBe(null);
    expect((await consoleLog(t, { targetId: student.id })).map((log) => log.action)).toContain("lift");
    expect(
      (await consoleLog(t, { targetId: student.id })).find((log) => log.action === "lift"),
    ).toMatchObject({ action: "lift", actorId: admin.id });
    await expect(
      liftStudent(t.ctx, admin.viewer, { studentId: student.id, ...reasons }),
    ).rejects.toMatchObject({
      message: ADMIN_MESSAGES.notSuspended,
    });
  });

  it("an admin cannot suspend or ban themselves", async () => {
    await expect(
      suspendStudent(t.ctx, admin.viewer, { studentId: admin.id, days: "1", ...reasons }, own),
    ).rejects.toMatchObject({ message: ADMIN_MESSAGES.notYourself });
  });

  it("ban: no sign-in, the address refused, every session ended and forgotten; lift undoes it", async () => {
    const student = await createTestMember(t);
    const forgotten: string[] = [];
    const { sessionsEnded } = await banStudent(
      t.ctx,
      admin.viewer,
      { studentId: student.id, ...reasons },
      own,
      { forget: (token) => forgotten.push(token) },
    );
    expect(sessionsEnded).toBe(1);
    expect(forgotten).toHaveLength(1);
    const banned = await row(student.id);
    expect(banned.banned).toBe(true);
    expect(banned.suspendedUntil).toEqual(INDEFINITELY);
    expect(await t.ctx.db.select().from(session).where(eq(session.userId, student.id))).toEqual([]);
    expect(
      await t.ctx.db.select().from(bannedEmails).where(eq(bannedEmails.userId, student.id)),
    ).toHaveLength(1);
    expect((await consoleLog(t, { targetId: student.id }))[0]).toMatchObject({
      action: "ban",
      actorId: admin.id,
    });
    await expect(
      banStudent(t.ctx, admin.viewer, { studentId: student.id, ...reasons }, own),
    ).rejects.toMatchObject({ message: ADMIN_MESSAGES.alreadyBanned });

    t.clock.advance(1000);
    await liftStudent(t.ctx, admin.viewer, { studentId: student.id, ...reasons });
    expect(await row(student.id)).toMatchObject({ banned: false, suspendedUntil: null });
    expect(await t.ctx.db.select().from(bannedEmails).where(eq(bannedEmails.userId, student.id))).toEqual([]);
  });

  it("destructive actions ask for the password when the admin's sign-in is older than 10 minutes", async () => {
    const student = await createTestMember(t);
    const stale = await ownSession(t, admin.id, 11);
    await expect(
      suspendStudent(t.ctx, admin.viewer, { studentId: student.id, days: "1", ...reasons }, stale),
    ).rejects.toMatchObject({ code: "reauth-required", field: "password" });
    await expect(
      signOutStudentEverywhere(t.ctx, admin.viewer, { studentId: student.id, reason: "lost phone" }, stale),
    ).rejects.toMatchObject({ code: "reauth-required" });
    expect((await row(student.id)).suspendedUntil).toBe(null);
    await suspendStudent(
      t.ctx,
      admin.viewer,
      { studentId: student.id, days: "1", ...reasons, password: admin.password },
      stale,
    );
    expect((await row(student.id)).suspendedUntil).not.toBe(null);
    own = await ownSession(t, admin.id, 1);
  });

  it("sign out everywhere ends every session, logged privately with the reason", async () => {
    const student = await createTestMember(t);
    const { sessionsEnded } = await signOutStudentEverywhere(
      t.ctx,
      admin.viewer,
      { studentId: student.id, reason: "Lost their phone" },
      own,
    );
    expect(sessionsEnded).toBe(1);
    expect((await consoleLog(t, { targetId: student.id }))[0]).toMatchObject({
      action: "sign_out_everywhere",
      privateNote: "Lost their phone",
      publicReason: null,
      details: { sessionsEnded: 1 },
    });
  });

  it("verify e-mail marks it verified; resend a code keeps the 3-an-hour limit; both logged", async () => {
    const student = await createTestUser(t, { verified: false });
    // The sign-up mailed one code; two more fit in the hour.
    await resendStudentCode(t.ctx, admin.viewer, { studentId: student.id, reason: "Never got it" });
    await resendStudentCode(t.ctx, admin.viewer, { studentId: student.id, reason: "Never got it" });
    await expect(
      resendStudentCode(t.ctx, admin.viewer, { studentId: student.id, reason: "Never got it" }),
    ).rejects.toMatchObject({ code: "too-many-mails" });
    const resent = (await consoleLog(t, { targetId: student.id })).filter(
      (log) => log.action === "resend_code",
    );
    expect(resent).toHaveLength(2);
    t.clock.advance(1000);
    await verifyStudentEmail(t.ctx, admin.viewer, { studentId: student.id, reason: "Checked their ID" });
    expect((await row(student.id)).verified).toBe(true);
    expect((await consoleLog(t, { targetId: student.id }))[0]).toMatchObject({
      action: "verify_email",
      actorId: admin.id,
      privateNote: "Checked their ID",
    });
    await expect(
      verifyStudentEmail(t.ctx, admin.viewer, { studentId: student.id, reason: "again" }),
    ).rejects.toMatchObject({ message: ADMIN_MESSAGES.alreadyVerified });
    await expect(
      resendStudentCode(t.ctx, admin.viewer, { studentId: student.id, reason: "again" }),
    ).rejects.toMatchObject({ message: ADMIN_MESSAGES.alreadyVerified });
    const codes = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, student.email), eq(mailOutbox.kind, "verification-code")));
    expect(codes).toHaveLength(3);
  });
});
