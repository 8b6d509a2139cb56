import { setTimeout as delay } from "node:timers/promises";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { type PushService, startPushService } from "../../tests/support/push-service";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notifications, pushSubscriptions, realtimePresence, realtimeProcesses } from "../db/schema";
import { createLogger } from "../logger";
import { createRealtimeHub } from "../realtime/hub";
import { REALTIME_PRESENCE_STALE_MS, usersWithLiveStreams } from "../realtime/presence";
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

  it("sends nothing for what was read meanwhile", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    await t.ctx.db.update(notifications).set({ read: true }).where(eq(notifications.userId, ana.id));
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, failed: 0 });
  });

  it("sends nothing while the user reads live in another process, and again once they left or it died", async () => {
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    const cy = await createTestMember(t, { fullName: "Cy Reader" });
    await savePushSubscription(t.ctx, cy.viewer, subscription);
    const post = await createTestPost(t, cy.viewer);
    // Another app process holds Cy's stream; this process (t.ctx, its worker) holds none.
    const other = createRealtimeHub({
      database: t.ctx.database,
      log: createLogger("silent"),
      maxStreams: 10,
      maxStreamsPerUser: 10,
      presenceLingerMs: 0,
    });
    try {
      const opened = await other.subscribe(cy.id, 0, { event() {}, reset() {}, end() {} });
      if (!opened.ok) throw new Error("stream refused");
      expect(t.ctx.realtime.streamCount(cy.id)).toBe(0);
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, failed: 0 });

      // The stream closes: once the other process has written it down, pushes go again.
      opened.subscription.close();
      while ((await usersWithLiveStreams(t.ctx.db, [cy.id])).size > 0) await delay(20);
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, failed: 0 });

      // A process killed with its streams open stops beating: they stop counting (decision 0331).
      const again = await other.subscribe(cy.id, 0, { event() {}, reset() {}, end() {} });
      if (!again.ok) throw new Error("stream refused");
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, failed: 0 });
      await t.ctx.db
        .update(realtimeProcesses)
        .set({ seenAt: new Date(Date.now() - REALTIME_PRESENCE_STALE_MS - 60_000) })
        .where(
          inArray(
            realtimeProcesses.id,
            t.ctx.db
              .select({ id: realtimePresence.processId })
              .from(realtimePresence)
              .where(eq(realtimePresence.userId, cy.id)),
          ),
        );
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, failed: 0 });
      expect(await push.messages(subscription.clientHash)).toHaveLength(2);
    } finally {
      await other.close();
    }
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
