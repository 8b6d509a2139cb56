import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { mailOutbox, notifications, user } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { mailComposers } from "../mail/worker";
import { deletePost } from "../posts/posts";
import { toggleSave } from "../posts/saves";
import { unsubscribeFromNotificationEmails, unsubscribeToken, verifyUnsubscribeToken } from "./email";
import { listNotifications, updateEmailPreferences } from "./notifications";

let t: TestContext;
let ana: TestMember;
let ben: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  ana = await createTestMember(t, { fullName: "Ana Seller" });
  ben = await createTestMember(t, { fullName: "Ben Buyer" });
  await createTestMember(t, { fullName: "Cal Commenter" });
  await createTestMember(t, { fullName: "Dee Deeper" });
});
afterAll(() => t.close());

async function clearNotifications() {
  await t.ctx.db.delete(notifications);
  await t.ctx.db.delete(mailOutbox).where(eq(mailOutbox.kind, "notification"));
  t.mail.sent.length = 0;
}

/** Sends what is due now with the worker's composers; only the notification e-mails are returned. */
async function deliverNotificationMail() {
  await deliverDueMail(t.ctx, 50, mailComposers);
  return t.mail.sent.filter((mail) => mail.headers?.["List-Unsubscribe"]);
}

beforeEach(clearNotifications);

describe("notification e-mail (decision 0251)", () => {
  let delayed: TestContext;
  let owner: TestMember;
  let saver: TestMember;
  let commenter: TestMember;

  beforeAll(async () => {
    delayed = await createTestContext({ notificationEmailDelayMs: 120_000 });
    owner = await createTestMember(delayed, { fullName: "Owen Owner" });
    saver = await createTestMember(delayed, { fullName: "Sam Saver" });
    commenter = await createTestMember(delayed, { fullName: "Cora Comment" });
  });
  afterAll(() => delayed.close());
  beforeEach(async () => {
    await delayed.ctx.db.delete(notifications);
    await delayed.ctx.db.delete(mailOutbox);
    delayed.mail.sent.length = 0;
    await delayed.ctx.db.update(user).set({ emailNotifications: true }).where(eq(user.id, owner.id));
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: true,
      saves: true,
      messages: true,
      priceDrops: true,
    });
  });

  async function deliver() {
    await deliverDueMail(delayed.ctx, 50, mailComposers);
    return delayed.mail.sent.filter((mail) => mail.to === owner.email);
  }

  it("waits the delay, then sends several notifications as one e-mail with one-click unsubscribe", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    delayed.clock.advance(30_000);
    await createTestComment(delayed, commenter.viewer, post.id);
    expect(await deliver()).toEqual([]);
    delayed.clock.advance(91_000);
    const sent = await deliver();
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.subject).toBe("You have 2 new notifications");
    expect(mail?.text).toContain("Cora C. commented on your post");
    expect(mail?.text).toContain("Sam S. saved your post");
    expect(mail?.text).toContain(`/post/${post.id}`);
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(mail?.headers?.["List-Unsubscribe"] ?? "")?.[1] ?? "";
    expect(new URL(link).origin).toBe(`http://localhost:${delayed.ctx.config.port}`);
    expect(mail?.text).toContain("Turn off notification e-mails");
    expect(mail?.text).toContain(link);
    // Nothing is mailed twice.
    delayed.clock.advance(600_000);
    expect(await deliver()).toHaveLength(1);
  });

  it("drops the e-mail when the notification was read meanwhile", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    await listNotifications(delayed.ctx, owner.viewer);
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
    const [row] = await delayed.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "notification"));
    expect(row?.status).toBe("dropped");
  });

  it("drops the e-mail when the content was deleted meanwhile", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await createTestComment(delayed, commenter.viewer, post.id);
    await deletePost(delayed.ctx, owner.viewer, post.id);
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
  });

  it("drops the e-mail when the preference was turned off meanwhile, per kind or entirely", async () => {
    const post = await createTestPost(delayed, owner.viewer);
    await toggleSave(delayed.ctx, saver.viewer, post.id);
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: true,
      saves: false,
      messages: true,
      priceDrops: true,
    });
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);

    await createTestComment(delayed, commenter.viewer, post.id);
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: false,
      comments: true,
      saves: true,
      messages: true,
      priceDrops: true,
    });
    delayed.clock.advance(121_000);
    expect(await deliver()).toEqual([]);
  });

  it("queues nothing for a kind the user turned off", async () => {
    await updateEmailPreferences(delayed.ctx, owner.viewer, {
      enabled: true,
      comments: false,
      saves: true,
      messages: true,
      priceDrops: true,
    });
    const post = await createTestPost(delayed, owner.viewer);
    await createTestComment(delayed, commenter.viewer, post.id);
    expect(await delayed.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "notification"))).toEqual(
      [],
    );
  });
});

describe("unsubscribe (RFC 8058)", () => {
  it("accepts only tokens this app signed, and turns email_notifications off", async () => {
    const token = unsubscribeToken(t.ctx, ana, "notifications");
    expect(await verifyUnsubscribeToken(t.ctx, token, "notifications")).toBe(ana.id);
    expect(await verifyUnsubscribeToken(t.ctx, token.replace(ana.id, ben.id), "notifications")).toBeNull();
    expect(
      await verifyUnsubscribeToken(
        t.ctx,
        `${token.slice(0, token.lastIndexOf("."))}.forged`,
        "notifications",
      ),
    ).toBeNull();
    expect(await unsubscribeFromNotificationEmails(t.ctx, `${ana.id}.forged`)).toBe(false);
    expect(await unsubscribeFromNotificationEmails(t.ctx, token)).toBe(true);
    const [row] = await t.ctx.db
      .select({ on: user.emailNotifications })
      .from(user)
      .where(eq(user.id, ana.id));
    expect(row?.on).toBe(false);
    // With the delay of 0 of tests, a notification now queues no e-mail.
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    expect(await deliverNotificationMail()).toEqual([]);
    await t.ctx.db.update(user).set({ emailNotifications: true }).where(eq(user.id, ana.id));
  });

  it("sends at once with a delay of 0", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    const sent = await deliverNotificationMail();
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [ana.email, "Ben B. commented on your post"],
    ]);
  });
});
