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
import {
  notifications,
  posts,
  pushSubscriptions,
  realtimePresence,
  realtimeProcesses,
  user,
} from "../db/schema";
import { createLogger } from "../logger";
import { createRealtimeHub } from "../realtime/hub";
import { REALTIME_PRESENCE_STALE_MS, usersWithLiveStreams } from "../realtime/presence";
import { deliverDuePush, MAX_PUSH_SUBSCRIPTIONS, savePushSubscription, UNKNOWN_PUSH_SERVICE } from "./push";
import { isRefusedAddress } from "./push-endpoint";

let t: TestContext;
let push: PushService;
let ana: TestMember;
let ben: TestMember;

beforeAll(async () => {
  // Decision 0460: the local push service is admitted through the test-only allowance.
  [t, push] = await Promise.all([createTestContext({ pushLocalService: true }), startPushService()]);
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

describe("web push (decision 0252)", () => {
  it("signs and encrypts a push the push service accepts and decrypts, leading to the post", async () => {
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    await savePushSubscription(t.ctx, ana.viewer, subscription);
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);

    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, refused: 0, failed: 0 });
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
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });
  });

  it("sends nothing for what was read meanwhile", async () => {
    const post = await createTestPost(t, ana.viewer);
    await createTestComment(t, ben.viewer, post.id);
    await t.ctx.db.update(notifications).set({ read: true }).where(eq(notifications.userId, ana.id));
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });
  });

  it("sends nothing about a comment hidden since, nor about a suspended author's (decision 0546)", async () => {
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    const dee = await createTestMember(t, { fullName: "Dee Owner" });
    await savePushSubscription(t.ctx, dee.viewer, subscription);
    const post = await createTestPost(t, dee.viewer);
    const hidden = await createTestComment(t, ben.viewer, post.id);
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(eq(posts.id, hidden.id));
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });
    const eve = await createTestMember(t, { fullName: "Eve Suspended" });
    await createTestComment(t, eve.viewer, post.id);
    await t.ctx.db
      .update(user)
      .set({ suspendedUntil: new Date(t.clock.now().getTime() + 60_000) })
      .where(eq(user.id, eve.id));
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });
    await createTestComment(t, ben.viewer, post.id);
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, refused: 0, failed: 0 });
    expect(await push.messages(subscription.clientHash)).toHaveLength(1);
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
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });

      // The stream closes: once the other process has written it down, pushes go again.
      opened.subscription.close();
      while ((await usersWithLiveStreams(t.ctx.db, [cy.id])).size > 0) await delay(20);
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, refused: 0, failed: 0 });

      // A process killed with its streams open stops beating: they stop counting (decision 0331).
      const again = await other.subscribe(cy.id, 0, { event() {}, reset() {}, end() {} });
      if (!again.ok) throw new Error("stream refused");
      await createTestComment(t, ben.viewer, post.id);
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 0, refused: 0, failed: 0 });
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
      expect(await deliverDuePush(t.ctx)).toEqual({ sent: 1, expired: 0, refused: 0, failed: 0 });
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
    expect(await deliverDuePush(t.ctx)).toEqual({ sent: 0, expired: 1, refused: 0, failed: 0 });
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
        endpoint: `https://fcm.googleapis.com/fcm/send/${index}`,
        keys: { p256dh: "BAAA", auth: "AAAA" },
      });
      t.clock.advance(1000);
    }
    const kept = await subscriptionsOf(ben);
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS);
    expect(kept.map((row) => row.endpoint)).not.toContain("https://fcm.googleapis.com/fcm/send/0");
  });
});

describe("push endpoints the server may post to (decision 0460)", () => {
  let strict: TestContext;
  let dee: TestMember;
  const keys = { p256dh: "BAAA", auth: "AAAA" };

  beforeAll(async () => {
    // As in production: no allowance for a push service on this machine.
    strict = await createTestContext();
    dee = await createTestMember(strict, { fullName: "Dee Strict" });
  });
  afterAll(async () => {
    await strict.close();
  });

  async function deesSubscriptions() {
    return strict.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, dee.id));
  }

  it("takes https addresses of the browser vendors' push services", async () => {
    const endpoints = [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
      "https://web.push.apple.com/QGm3Yx",
    ];
    for (const endpoint of endpoints) await savePushSubscription(strict.ctx, dee.viewer, { endpoint, keys });
    expect((await deesSubscriptions()).map((row) => row.endpoint).sort()).toEqual([...endpoints].sort());
    await strict.ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, dee.id));
  });

  it.each([
    ["a loopback address over http", `http://127.0.0.1:8080/push`],
    ["a loopback address over https", "https://127.0.0.1/push"],
    ["localhost", "https://localhost/push"],
    ["IPv6 loopback", "https://[::1]/push"],
    ["an IPv4-mapped IPv6 loopback", "https://[::ffff:127.0.0.1]/push"],
    ["a private address", "https://10.0.0.5/push"],
    ["a link-local address", "https://169.254.10.1/push"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["any other host", "https://push.example/abc"],
    ["a look-alike of a push service", "https://fcm.googleapis.com.attacker.example/fcm/send/x"],
    ["a push service over http", "http://fcm.googleapis.com/fcm/send/x"],
    ["a push service on another port", "https://fcm.googleapis.com:8443/fcm/send/x"],
    ["credentials in the address", "https://user:pass@fcm.googleapis.com/fcm/send/x"],
  ])("refuses %s with a clear 400 and stores nothing", async (_kind, endpoint) => {
    await expect(savePushSubscription(strict.ctx, dee.viewer, { endpoint, keys })).rejects.toMatchObject({
      code: "invalid-input",
      status: 400,
      message: UNKNOWN_PUSH_SERVICE,
    });
    expect(await deesSubscriptions()).toEqual([]);
  });

  it("skips and removes, at send time, a stored subscription the server must not post to", async () => {
    const target = await push.subscribe(strict.ctx.config.vapid.publicKey);
    const local = new URL(target.endpoint);
    const refused = [
      // The local push service itself: a request there would be seen (it records every push).
      target.endpoint,
      `http://127.0.0.1:${local.port}${local.pathname}`,
      `http://[::ffff:7f00:1]:${local.port}${local.pathname}`,
      "http://169.254.169.254/latest/meta-data/",
      "https://192.168.1.1/push",
    ];
    // Stored before the rules existed (or by a bug): written straight to the table.
    await strict.ctx.db.insert(pushSubscriptions).values(
      refused.map((endpoint, index) => ({
        userId: dee.id,
        endpoint,
        p256dh: target.keys.p256dh,
        auth: target.keys.auth,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
      })),
    );
    const post = await createTestPost(strict, dee.viewer);
    const eve = await createTestMember(strict, { fullName: "Eve Other" });
    await createTestComment(strict, eve.viewer, post.id);

    expect(await deliverDuePush(strict.ctx)).toEqual({
      sent: 0,
      expired: 0,
      refused: refused.length,
      failed: 0,
    });
    expect(await push.messages(target.clientHash)).toEqual([]);
    expect(await deesSubscriptions()).toEqual([]);
  });

  it.each([
    "127.0.0.1",
    "127.255.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "169.254.1.1",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "::ffff:10.0.0.1",
  ])("never sends to %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(["142.250.180.10", "172.32.0.1", "100.128.0.1", "2a00:1450:4007:80e::200a"])(
    "sends to the public address %s",
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );
});
