import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { type PushService, startPushService } from "../../tests/support/push-service";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notifications, pushSubscriptions } from "../db/schema";
import { deliverDuePush, MAX_PUSH_SUBSCRIPTIONS, savePushSubscription } from "./push";

let t: TestContext;
let push: PushService;
let ana: TestMember;
let ben: TestMember;

beforeAll(async () => {
  [t, push] = await Promise.all([createTestContext(), startPushService()]);
  ana = await createTestMember(t, { fullName: "Ana Seller" });
  ben = await createTestMember(t, { fullName: "Ben Buyer" });
});
afterAll(async () => {
  await push.close();
  await t.close();
});

async function subscriptionsOf(member: TestMember) {
  return t.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, member.id));
}

describe("web push (issue 14 §3, decision 0252)", () => {
  it("signs and encrypts a push the push service accepts and decrypts, leading to the post", async () => {
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    await savePushSubscription(t.ctx, ana.viewer, subscription);
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);

    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, failed: 0 });
    const messages = await push.messages(subscription.clientHash);
    expect(messages.map((message) => JSON.parse(message))).toEqual([
      {
        title: "Campus Buy Sell",
        body: "Ben B. commented on your post",
        url: `/post/${post.id}`,
        tag: `post-${post.id}`,
      },
    ]);
    // Sent once: the claim cleared the flag.
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, failed: 0 });
  });

  it("sends nothing to a user with a live stream open, or for what was read meanwhile", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    expect(await deliverDuePush(t.ctx, { isLive: (userId) => userId === ana.id })).toEqual({
      sent: 0,
      expired: 0,
      failed: 0,
    });
    await createTestComment(t, ben.viewer, post.id);
    await t.ctx.db.update(notifications).set({ read: true }).where(eq(notifications.userId, ana.id));
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, failed: 0 });
  });

  it("removes a subscription the push service says is gone (410)", async () => {
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    await savePushSubscription(t.ctx, ben.viewer, subscription);
    await push.expire(subscription.clientHash);
    const post = await createTestPost(t, ben.viewer);
    await createTestComment(t, ana.viewer, post.id);
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 1, failed: 0 });
    expect(await subscriptionsOf(ben)).toEqual([]);
  });

  it("refuses a malformed subscription and keeps at most ten browsers per user", async () => {
    await expect(
      savePushSubscription(t.ctx, ben.viewer, {
        endpoint: "javascript:alert(1)",
        keys: { p256dh: "a", auth: "b" },
      }),
    ).rejects.toMatchObject({ code: "invalid-input" });
    for (let index = 0; index < MAX_PUSH_SUBSCRIPTIONS + 2; index++) {
      await savePushSubscription(t.ctx, ben.viewer, {
        endpoint: `https://push.example/${index}`,
        keys: { p256dh: "BAAA", auth: "AAAA" },
      });
      t.clock.advance(1000);
    }
    const kept = await subscriptionsOf(ben);
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS);
    expect(kept.map((row) => row.endpoint)).not.toContain("https://push.example/0");
  });
});
