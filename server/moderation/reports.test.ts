import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  createTestUser,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { startConversation } from "../chats/conversations";
import { sendMessage } from "../chats/messages";
import { moderationItems, notifications, reports } from "../db/schema";
import type { ReportTargetKind } from "../db/schema/reports";
import { grantRole } from "../staff/roles";
import { fileReport } from "./reports";
import { MODERATION_MESSAGES, REPORT_MESSAGES, REPORTED_ALERTS } from "./rules.shared";

// Decision 0540: filing a report, on the embedded database and (DATABASE_URL) PostgreSQL.

let t: TestContext;
let author: TestMember;
let reporter: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  author = await createTestMember(t, { ageDays: 7, fullName: "Alex Author" });
  reporter = await createTestMember(t, { ageDays: 7, fullName: "Riley Reporter" });
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;

async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; status: number; message: string };
  }
  throw new Error("expected a refusal");
}

function reportsOf(reporterId: string) {
  return t.ctx.db.select().from(reports).where(eq(reports.reporterId, reporterId));
}

async function itemOf(kind: ReportTargetKind, id: string) {
  const [item] = await t.ctx.db
    .select()
    .from(moderationItems)
    .where(and(eq(moderationItems.targetKind, kind), eq(moderationItems.targetId, id)));
  return item;
}

/** A chat between two members with `count` messages, alternating senders; their ids oldest first. */
async function chatWith(a: TestMember, b: TestMember, count: number) {
  const started = await startConversation(t.ctx, a.viewer, { recipientId: b.id, text: "message 1" });
  const ids = [started.messageId];
  for (let n = 2; n <= count; n++) {
    t.clock.advance(10_000);
    const from = n % 2 === 0 ? b : a;
    ids.push((await sendMessage(t.ctx, from.viewer, started.chatId, { text: `message ${n}` })).messageId);
  }
  return { chatId: started.chatId, ids };
}

describe("what a student can report", () => {
  it("reports a post, a comment, a chat message and a member, each with its own alert", async () => {
    const student = await createTestMember(t, { ageDays: 7 });
    const post = await createTestPost(t, author.viewer, { text: "A bike for sale" });
    const comment = await createTestComment(t, author.viewer, post.id);
    const chat = await chatWith(student, author, 2);
    const targets: [ReportTargetKind, string][] = [
      ["post", post.id],
      ["comment", comment.id],
      ["message", chat.ids[1] ?? ""],
      ["user", author.id],
    ];
    for (const [targetKind, targetId] of targets) {
      const filed = await fileReport(t.ctx, student.viewer, { targetKind, targetId, reason: "spam" });
      expect(filed.message).toBe(REPORTED_ALERTS[targetKind]);
      expect(await itemOf(targetKind, targetId)).toMatchObject({
        campusId: "ou",
        targetUserId: author.id,
        state: "open",
        reporters: 1,
        weight: 1,
        // Decision 0541: a chat message goes to site admins only.
        toAdmins: targetKind === "message",
      });
    }
    expect(REPORTED_ALERTS.user).toBe("User Reported. Thanks for letting us know.");
    expect(REPORTED_ALERTS.post).toBe("Post reported. Thanks for letting us know.");
    const rows = await reportsOf(student.id);
    expect(rows.map((row) => row.targetKind).sort()).toEqual(["comment", "message", "post", "user"]);
    expect(rows.every((row) => row.reportedUserId === author.id && row.campusId === "ou")).toBe(true);
  });

  it("sends a scam report and a report about staff to site admins only", async () => {
    const scam = await createTestPost(t, author.viewer);
    await fileReport(t.ctx, reporter.viewer, { targetKind: "post", targetId: scam.id, reason: "scam" });
    expect((await itemOf("post", scam.id))?.toAdmins).toBe(true);
    const moderator = await createTestMember(t, { ageDays: 7 });
    await t.ctx.db.transaction((tx) =>
      grantRole(
        tx,
        t.clock.now(),
        moderator.id,
        { role: "campus_moderator", campusId: "ou" },
        { source: "command" },
      ),
    );
    await fileReport(t.ctx, reporter.viewer, { targetKind: "user", targetId: moderator.id, reason: "spam" });
    expect((await itemOf("user", moderator.id))?.toAdmins).toBe(true);
  });

  it("answers 404 for another campus's or an unknown target, and for a chat the reporter is not in", async () => {
    const utMember = await createTestMember(t, { campusId: "ut" });
    const utPost = await createTestPost(t, utMember.viewer);
    const outsider = await createTestMember(t, { ageDays: 7 });
    const chat = await chatWith(author, reporter, 1);
    const post = await createTestPost(t, author.viewer);
    const attempts: [ReportTargetKind, string][] = [
      ["post", utPost.id],
      ["user", utMember.id],
      ["post", "00000000-0000-4000-8000-000000000000"],
      ["post", "not-a-uuid"],
      ["user", "no-such-user"],
      // A post's id sent as a comment is not a comment.
      ["comment", post.id],
      ["message", chat.ids[0] ?? ""],
    ];
    for (const [targetKind, targetId] of attempts) {
      const error = await refusal(
        fileReport(t.ctx, outsider.viewer, { targetKind, targetId, reason: "spam" }),
      );
      expect({ targetKind, targetId, code: error.code, status: error.status }).toEqual({
        targetKind,
        targetId,
        code: "not-found",
        status: 404,
      });
      expect(error.message).toBe(REPORT_MESSAGES.notFound);
    }
    expect(await reportsOf(outsider.id)).toHaveLength(0);
  });

  it("refuses one's own post, comment, message and profile, and a chat message one sent", async () => {
    const post = await createTestPost(t, author.viewer);
    const comment = await createTestComment(t, author.viewer, post.id);
    const chat = await chatWith(author, reporter, 1);
    const own: [ReportTargetKind, string][] = [
      ["post", post.id],
      ["comment", comment.id],
      ["message", chat.ids[0] ?? ""],
      ["user", author.id],
    ];
    for (const [targetKind, targetId] of own) {
      const error = await refusal(
        fileReport(t.ctx, author.viewer, { targetKind, targetId, reason: "other" }),
      );
      expect(error).toMatchObject({
        code: "own-content",
        message: REPORT_MESSAGES.cannotReportOwn[targetKind],
      });
    }
    expect(REPORT_MESSAGES.cannotReportOwn.user).toBe("You can't report yourself.");
    expect(await reportsOf(author.id)).toHaveLength(0);
  });

  it("refuses visitors and students whose e-mail is not verified", async () => {
    const post = await createTestPost(t, author.viewer);
    const input = { targetKind: "post", targetId: post.id, reason: "spam" };
    expect(await refusal(fileReport(t.ctx, null, input))).toMatchObject({ code: "sign-in", status: 401 });
    const unverified = await createTestUser(t);
    expect(await refusal(fileReport(t.ctx, { id: unverified.id }, input))).toMatchObject({
      code: "verify-email",
      message: "Verify your email first.",
    });
    expect(await reportsOf(unverified.id)).toHaveLength(0);
  });
});

describe("the dialog's fields", () => {
  it("needs one of the six reasons and a comment of at most 1,000 characters, kept as plain text", async () => {
    const post = await createTestPost(t, author.viewer);
    const base = { targetKind: "post", targetId: post.id };
    for (const reason of [undefined, "", "rude", "Scam"]) {
      const error = await refusal(fileReport(t.ctx, reporter.viewer, { ...base, reason }));
      expect(error).toMatchObject({ code: "invalid-input", status: 400, message: "Choose a reason." });
    }
    const long = await refusal(
      fileReport(t.ctx, reporter.viewer, { ...base, reason: "other", comment: "é".repeat(1001) }),
    );
    expect(long).toMatchObject({
      code: "invalid-input",
      message: "Keep your comment to 1,000 characters or fewer.",
    });
    const kind = await refusal(
      fileReport(t.ctx, reporter.viewer, { ...base, targetKind: "ad", reason: "spam" }),
    );
    expect(kind).toMatchObject({ code: "invalid-input", status: 400 });

    const comment = `  <b>Asked me to pay</b> by gift card\r\n${"x".repeat(950)}  `;
    await fileReport(t.ctx, reporter.viewer, { ...base, reason: "scam", comment });
    const [row] = await t.ctx.db
      .select({ comment: reports.comment, reason: reports.reason })
      .from(reports)
      .where(and(eq(reports.reporterId, reporter.id), eq(reports.targetId, post.id)));
    expect(row).toEqual({
      reason: "scam",
      comment: `<b>Asked me to pay</b> by gift card\n${"x".repeat(950)}`,
    });
  });
});

describe("reporting the same thing again", () => {
  it("updates the earlier report, answers 'Report updated', and reopens a decided item", async () => {
    const student = await createTestMember(t, { ageDays: 7 });
    const post = await createTestPost(t, author.viewer);
    const target = { targetKind: "post", targetId: post.id };
    await fileReport(t.ctx, student.viewer, { ...target, reason: "spam" });
    const item = await itemOf("post", post.id);
    // A moderator decided it (what the queue does): the report's outcome, the item decided.
    await t.ctx.db.update(reports).set({ outcome: "dismissed" }).where(eq(reports.reporterId, student.id));
    await t.ctx.db
      .update(moderationItems)
      .set({ state: "decided", decision: "dismiss" })
      .where(eq(moderationItems.targetId, post.id));
    t.clock.advance(HOUR);

    const again = await fileReport(t.ctx, student.viewer, {
      ...target,
      reason: "prohibited",
      comment: "Alcohol",
    });
    expect(again.message).toBe(MODERATION_MESSAGES.reportUpdated);
    expect(again.message).toBe("Report updated");
    const rows = await reportsOf(student.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: "prohibited", comment: "Alcohol", outcome: null });
    expect(rows[0]?.updatedAt.getTime()).toBe(t.clock.now().getTime());
    expect(rows[0]?.createdAt.getTime()).toBe(t.clock.now().getTime() - HOUR);
    const reopened = await itemOf("post", post.id);
    expect(reopened).toMatchObject({ id: item?.id, state: "open", reporters: 1, weight: 1 });
    expect(reopened?.openedAt.getTime()).toBe(t.clock.now().getTime());
    expect(reopened?.version).toBeGreaterThan(item?.version ?? 0);
  });

  it("tells the reported person nothing", async () => {
    const post = await createTestPost(t, author.viewer);
    const before = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, author.id));
    await fileReport(t.ctx, reporter.viewer, { targetKind: "post", targetId: post.id, reason: "harassment" });
    const after = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, author.id));
    expect(after).toHaveLength(before.length);
  });
});

describe("10 reports a day (rolling 24 hours)", () => {
  it("refuses the 11th new report with 429 and the wait, counts no update, and lets them report a day later", async () => {
    const student = await createTestMember(t, { ageDays: 7 });
    const posts = [];
    for (let n = 0; n < 12; n++) posts.push(await createTestPost(t, author.viewer, { text: `Post ${n}` }));
    const first = t.clock.now().getTime();
    for (let n = 0; n < 10; n++) {
      await fileReport(t.ctx, student.viewer, { targetKind: "post", targetId: posts[n]?.id, reason: "spam" });
      t.clock.advance(HOUR);
    }
    // 10 hours after the first: the first leaves the day in 14 hours.
    const eleventh = { targetKind: "post", targetId: posts[10]?.id, reason: "spam" };
    const error = (await refusal(fileReport(t.ctx, student.viewer, eleventh))) as unknown as {
      code: string;
      status: number;
      message: string;
      headers: Record<string, string>;
    };
    expect(error).toMatchObject({ code: "rate-limited", status: 429 });
    expect(error.message).toBe(
      "You've sent 10 reports in the last 24 hours, the most allowed. You can report again in 14 hours.",
    );
    expect(error.headers["Retry-After"]).toBe(String(14 * 60 * 60));
    // Updating an earlier report is not a new one.
    const update = await fileReport(t.ctx, student.viewer, {
      targetKind: "post",
      targetId: posts[0]?.id,
      reason: "scam",
    });
    expect(update.message).toBe("Report updated");

    t.clock.set(new Date(first + 24 * HOUR + 1000));
    const later = await fileReport(t.ctx, student.viewer, eleventh);
    expect(later.message).toBe(REPORTED_ALERTS.post);
    expect(await reportsOf(student.id)).toHaveLength(11);
  });
});

describe("a reported chat message's snapshot", () => {
  it("keeps exactly that message and the 10 before it, oldest first", async () => {
    const a = await createTestMember(t, { ageDays: 7, fullName: "Ann Able" });
    const b = await createTestMember(t, { ageDays: 7, fullName: "Ben Baker" });
    const chat = await chatWith(a, b, 14);
    // The 13th message (from Ann) is reported by Ben; the 14th came after it and is not kept.
    const reported = chat.ids[12] ?? "";
    await fileReport(t.ctx, b.viewer, { targetKind: "message", targetId: reported, reason: "harassment" });
    const [row] = await reportsOf(b.id);
    const snapshot = row?.snapshot;
    expect(snapshot?.chatId).toBe(chat.chatId);
    expect(snapshot?.messages.map((message) => message.id)).toEqual(chat.ids.slice(2, 13));
    expect(snapshot?.messages.map((message) => message.text)).toEqual(
      Array.from({ length: 11 }, (_, n) => `message ${n + 3}`),
    );
    expect(snapshot?.messages.at(-1)).toMatchObject({
      senderId: a.id,
      senderName: "Ann A.",
      hasPhoto: false,
    });
    // Fewer than 10 before it: all there are.
    const short = await chatWith(a, reporter, 3);
    await fileReport(t.ctx, reporter.viewer, {
      targetKind: "message",
      targetId: short.ids[2] ?? "",
      reason: "spam",
    });
    const [shortRow] = (await reportsOf(reporter.id)).filter((report) => report.targetId === short.ids[2]);
    expect(shortRow?.snapshot?.messages.map((message) => message.id)).toEqual(short.ids);
  });
});
