import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { mailOutbox, moderationLog } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { getMailHistory, getMailPage, MAIL_PAGE_SIZE, retryMail, withoutCodes } from "./mail";

// Decision 0553: the Mail page, a student's history and Retry, on PGlite and on PostgreSQL in CI.

const MINUTE = 60_000;

let t: TestContext;
let admin: TestMember;
let student: TestMember;
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t);
  student = await createTestMember(t, { fullName: "Jo Student" });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.ctx.db.delete(mailOutbox);
});

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

async function queueMail(values: Partial<typeof mailOutbox.$inferInsert>) {
  const [row] = await t.ctx.db
    .insert(mailOutbox)
    .values({
      campusId: "ou",
      kind: "test",
      to: "someone@example.edu",
      subject: "Hello",
      html: "<p>Your code is 4821</p>",
      text: "Your code is 4821",
      ...values,
    })
    .returning({ id: mailOutbox.id });
  if (!row) throw new Error("no mail");
  return row.id;
}

describe("the Mail page (decision 0553)", () => {
  it("is the site admins': a student and a campus moderator get the 404 for the page, the history and Retry", async () => {
    const moderator = await createModerator(t, "ou");
    const failed = await queueMail({ status: "failed" });
    for (const viewer of [student.viewer, moderator.viewer, null]) {
      await expect(getMailPage(t.ctx, viewer, { state: "pending", cursor: null })).rejects.toMatchObject({
        status: 404,
      });
      await expect(getMailHistory(t.ctx, viewer, { who: student.email })).rejects.toMatchObject({
        status: 404,
      });
      await expect(retryMail(t.ctx, viewer, { mailId: failed })).rejects.toMatchObject({ status: 404 });
    }
    const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, failed));
    expect(row?.status).toBe("failed");
  });

  it("counts the outbox by state, dates the oldest queued mail, and lists a state newest first in pages, without bodies", async () => {
    let page = await getMailPage(t.ctx, admin.viewer, { state: "pending", cursor: null });
    expect(page).toMatchObject({
      counts: { pending: 0, sent: 0, failed: 0, dropped: 0 },
      oldestQueuedSince: null,
      mails: [],
    });

    await queueMail({
      createdAt: ago(12 * MINUTE),
      nextAttemptAt: ago(12 * MINUTE),
      subject: "Your code 4821",
    });
    await queueMail({ createdAt: ago(MINUTE), nextAttemptAt: ago(MINUTE) });
    await queueMail({ status: "dropped" });
    await queueMail({ status: "failed", lastError: "550 mailbox unavailable" });
    for (let n = 0; n < MAIL_PAGE_SIZE + 2; n++) {
      await queueMail({ status: "sent", nextAttemptAt: ago(n * MINUTE), subject: `Sent ${n}` });
    }
    page = await getMailPage(t.ctx, admin.viewer, { state: "pending", cursor: null });
    expect(page.counts).toEqual({ pending: 2, sent: MAIL_PAGE_SIZE + 2, failed: 1, dropped: 1 });
    expect(page.oldestQueuedSince).toEqual(ago(12 * MINUTE));
    expect(page.mails.map((mail) => mail.subject)).toEqual(["Hello", "Your code ••••"]);
    expect(JSON.stringify(page)).not.toContain("4821");
    expect(Object.keys(page.mails[0] ?? {})).not.toContain("text");

    const sent = await getMailPage(t.ctx, admin.viewer, { state: "sent", cursor: null });
    expect(sent.mails).toHaveLength(MAIL_PAGE_SIZE);
    expect(sent.mails[0]?.subject).toBe("Sent 0");
    const rest = await getMailPage(t.ctx, admin.viewer, { state: "sent", cursor: sent.nextCursor });
    expect(rest.mails.map((mail) => mail.subject)).toEqual([
      `Sent ${MAIL_PAGE_SIZE}`,
      `Sent ${MAIL_PAGE_SIZE + 1}`,
    ]);
    expect(rest.nextCursor).toBeNull();

    const dropped = await getMailPage(t.ctx, admin.viewer, { state: "dropped", cursor: null });
    expect(dropped.mails[0]?.reason).toContain("read, deleted or turned off");
    const failed = await getMailPage(t.ctx, admin.viewer, { state: "failed", cursor: null });
    expect(failed.mails[0]?.reason).toBe("550 mailbox unavailable");
    await expect(
      getMailPage(t.ctx, admin.viewer, { state: "sent", cursor: "not-a-cursor" }),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it("shows a student's mail history by e-mail or username, subjects only", async () => {
    await queueMail({ to: student.email, subject: "Your OU verification code", createdAt: ago(2 * MINUTE) });
    await queueMail({ to: student.email, subject: "Reset your password", status: "sent" });
    await queueMail({ to: "other@example.edu", subject: "Not theirs" });
    const byEmail = await getMailHistory(t.ctx, admin.viewer, { who: ` ${student.email.toUpperCase()} ` });
    expect(byEmail.mails.map((mail) => mail.subject)).toEqual([
      "Reset your password",
      "Your OU verification code",
    ]);
    expect(JSON.stringify(byEmail)).not.toContain("4821");
    const username = byEmail.username ?? "";
    const byUsername = await getMailHistory(t.ctx, admin.viewer, { who: `@${username}` });
    expect(byUsername.mails).toHaveLength(2);
    await expect(getMailHistory(t.ctx, admin.viewer, { who: "nobody-by-this-name" })).rejects.toMatchObject({
      status: 400,
      field: "who",
    });
    await expect(getMailHistory(t.ctx, admin.viewer, { who: "x".repeat(255) })).rejects.toMatchObject({
      status: 400,
    });
    await expect(getMailHistory(t.ctx, admin.viewer, { who: "  " })).rejects.toMatchObject({ status: 400 });
    // An address no account holds: its mail is still listed.
    expect((await getMailHistory(t.ctx, admin.viewer, { who: "other@example.edu" })).mails).toHaveLength(1);
  });

  it("retries a failed mail: queued again, due now, attempts from zero, logged, delivered by the worker", async () => {
    const mailId = await queueMail({
      to: student.email,
      status: "failed",
      attempts: 10,
      lastError: "451 try again later",
      nextAttemptAt: ago(30 * MINUTE),
    });
    const wakes = t.wakes.count;
    expect(await retryMail(t.ctx, admin.viewer, { mailId })).toEqual({ to: student.email });
    expect(t.wakes.count).toBe(wakes + 1);
    const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
    expect(row).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: t.clock.now() });
    const [logged] = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.targetId, mailId));
    expect(logged).toMatchObject({
      action: "retry_mail",
      actorId: admin.id,
      actorRole: "site_admin",
      targetKind: "mail",
      campusId: null,
      details: { attempts: 10, lastError: "451 try again later" },
    });
    // A second click finds it no longer failed.
    await expect(retryMail(t.ctx, admin.viewer, { mailId })).rejects.toMatchObject({
      code: "mail-not-failed",
      status: 409,
    });
    expect((await deliverDueMail(t.ctx)).sent).toBe(1);
    const [sent] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
    expect(sent?.status).toBe("sent");
  });

  it("refuses to retry an expired code's mail, a missing one, and one a newer queued notification replaces", async () => {
    const expired = await queueMail({ status: "failed", expiresAt: ago(MINUTE) });
    await expect(retryMail(t.ctx, admin.viewer, { mailId: expired })).rejects.toMatchObject({
      code: "mail-expired",
    });
    await expect(
      retryMail(t.ctx, admin.viewer, { mailId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "mail-not-found", status: 404 });
    await expect(retryMail(t.ctx, admin.viewer, { mailId: "1; drop table" })).rejects.toMatchObject({
      status: 400,
    });
    const old = await queueMail({ status: "failed", userId: student.id, kind: "notifications" });
    await queueMail({ userId: student.id, kind: "notifications" });
    await expect(retryMail(t.ctx, admin.viewer, { mailId: old })).rejects.toMatchObject({
      code: "mail-newer-queued",
    });
    expect(withoutCodes("Code 123456 for 2026")).toBe("Code •••• for ••••");
    const logged = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.action, "retry_mail"));
    expect(logged).toHaveLength(1);
  });
});
