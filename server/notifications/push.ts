import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import webpush from "web-push";
import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { notifications, posts, priceDrops, pushSubscriptions, savedSearches, user } from "../db/schema";
import { notificationContentShown, visibilityNow } from "../moderation/visibility";
import { usersWithLiveStreams } from "../realtime/presence";
import { parseInput } from "../validation";
import { invalidNotificationInput, NotificationError } from "./errors";
import { priceDropNoticeColumns } from "./price-drop-notice";
import { endpointRefusal, type PushEndpointRules, sendRefusal } from "./push-endpoint";
import { displayName, noticeLine, notificationHref, searchMatchText } from "./texts";

/**
 * Web push (decision 0252): subscriptions per user, turned on from the
 * notification settings; the outbox worker sends what notify() marked push_pending.
 */

/** Browsers one user may hold push in; the oldest goes when a new one comes (bounds the fan-out). */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
/** Notifications one round pushes. */
export const PUSH_BATCH_SIZE = 20;
const PUSH_TIMEOUT_MS = 10_000;

const base64url = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/);

/** What PushSubscription.toJSON() gives, bounded. */
export const PushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(1000),
  keys: z.object({ p256dh: base64url, auth: base64url }),
});

/** What the settings page shows when the browser names a push service we do not post to. */
export const UNKNOWN_PUSH_SERVICE = "This browser's push service is not supported.";

function endpointRules(ctx: AppContext): PushEndpointRules {
  return { allowLocalService: ctx.config.pushLocalService };
}

/**
 * Stores the browser's subscription for the viewer (a browser that moves to another account
 * takes its endpoint along). The server posts to this address, so only https addresses of the
 * browser vendors' push services are taken (decision 0460); anything else is a 400
 * and stores nothing.
 */
export async function savePushSubscription(ctx: AppContext, viewer: Viewer, input: unknown): Promise<void> {
  const parsed = parseInput(PushSubscriptionSchema, input, invalidNotificationInput);
  if (endpointRefusal(parsed.endpoint, endpointRules(ctx))) {
    throw new NotificationError("invalid-input", UNKNOWN_PUSH_SERVICE, "endpoint");
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId: viewer.id,
        endpoint: parsed.endpoint,
        p256dh: parsed.keys.p256dh,
        auth: parsed.keys.auth,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: viewer.id, p256dh: parsed.keys.p256dh, auth: parsed.keys.auth },
      });
    const kept = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, viewer.id))
      .orderBy(asc(pushSubscriptions.createdAt))
      .limit(1000);
    const excess = kept.slice(0, Math.max(0, kept.length - MAX_PUSH_SUBSCRIPTIONS)).map((row) => row.id);
    if (excess.length > 0) await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, excess));
  });
}

/** Turning push off in one browser: its endpoint, and only the viewer's. */
export async function removePushSubscription(
  ctx: AppContext,
  viewer: Viewer,
  endpoint: string,
): Promise<void> {
  await ctx.db
    .delete(pushSubscriptions)
    .where(
      and(eq(pushSubscriptions.userId, viewer.id), eq(pushSubscriptions.endpoint, endpoint.slice(0, 1000))),
    );
}

export interface PushRound {
  sent: number;
  /** Subscriptions the push service said are gone (404/410), deleted. */
  expired: number;
  /** Subscriptions whose address the server must not post to (decision 0460), deleted unsent. */
  refused: number;
  failed: number;
}

/** What the service worker shows (public/sw.js): ids and words, no content beyond the line itself. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * Claims notifications owed a push (FOR UPDATE SKIP LOCKED; at most once: the flag is cleared
 * in the claim), skips users with a live stream open in any process (decision 0331: their page
 * shows it), and sends each to every subscription
 * of its user through web-push's request details over fetch (docs/architecture.md pitfall 13), so a
 * local push service works in tests. A 404 or 410 deletes the subscription.
 */
export async function deliverDuePush(ctx: AppContext, options: { limit?: number } = {}): Promise<PushRound> {
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.pushPending, true))
      .orderBy(asc(notifications.createdAt))
      .limit(options.limit ?? PUSH_BATCH_SIZE)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((row) => row.id);
    await tx.update(notifications).set({ pushPending: false }).where(inArray(notifications.id, ids));
    return tx
      .select({
        id: notifications.id,
        userId: notifications.userId,
        type: notifications.type,
        event: notifications.event,
        dealId: notifications.dealId,
        postId: notifications.postId,
        chatId: notifications.chatId,
        read: notifications.read,
        firstName: user.firstName,
        lastName: user.lastName,
        // Decision 0546: a push about hidden, removed or a suspended author's content is not sent.
        contentShown: notificationContentShown(notifications, visibilityNow(ctx.clock.now())),
        savedSearchName: savedSearches.name,
        // Decision 0640: a price drop's words come from its row and the listing.
        priceDrop: priceDropNoticeColumns,
      })
      .from(notifications)
      .innerJoin(user, eq(user.id, notifications.actorId))
      .leftJoin(savedSearches, eq(savedSearches.id, notifications.savedSearchId))
      .leftJoin(priceDrops, eq(priceDrops.id, notifications.priceDropId))
      .leftJoin(posts, eq(posts.id, priceDrops.postId))
      .where(inArray(notifications.id, ids));
  });

  const round: PushRound = { sent: 0, expired: 0, refused: 0, failed: 0 };
  const unread = claimed.filter((item) => !item.read && item.contentShown);
  const live = await usersWithLiveStreams(
    ctx.db,
    unread.map((item) => item.userId),
  );
  const gone: string[] = [];
  for (const item of unread) {
    if (live.has(item.userId)) continue;
    const subscriptions = await ctx.db
      .select()
      .from(pushSubscriptions)
      .where(
        gone.length > 0
          ? and(eq(pushSubscriptions.userId, item.userId), notInArray(pushSubscriptions.id, gone))
          : eq(pushSubscriptions.userId, item.userId),
      )
      .limit(MAX_PUSH_SUBSCRIPTIONS);
    const payload: PushPayload = {
      title: "Campus Buy Sell",
      // Decision 0621: a saved search's match is named after the search, as in the list.
      body:
        item.type === "search match" && item.savedSearchName
          ? searchMatchText(item.savedSearchName, 1)
          : noticeLine(item, displayName(item)),
      url: notificationHref(item),
      // A newer push about the same chat or post replaces the older one on the device.
      tag: item.chatId ? `chat-${item.chatId}` : `post-${item.postId ?? item.id}`,
    };
    for (const subscription of subscriptions) {
      const outcome = await sendPush(ctx, subscription, payload);
      if (outcome === "sent") round.sent++;
      else if (outcome === "gone" || outcome === "refused") {
        gone.push(subscription.id);
        if (outcome === "gone") round.expired++;
        else round.refused++;
      } else round.failed++;
    }
  }
  if (gone.length > 0) await ctx.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
  return round;
}

async function sendPush(
  ctx: AppContext,
  subscription: typeof pushSubscriptions.$inferSelect,
  payload: PushPayload,
): Promise<"sent" | "gone" | "refused" | "failed"> {
  // Decision 0460: checked again right before the request, with the host's addresses.
  const refused = await sendRefusal(subscription.endpoint, endpointRules(ctx));
  if (refused) {
    ctx.log.warn(
      { subscription: subscription.id, reason: refused },
      "push endpoint refused, subscription removed",
    );
    return "refused";
  }
  try {
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: ctx.config.vapid,
        TTL: 24 * 60 * 60,
        contentEncoding: "aes128gcm",
      },
    );
    const body = details.body ? new Uint8Array(details.body) : null;
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body,
      // Decision 0460: a push service never redirects; following one would leave the checked address.
      redirect: "error",
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return "gone";
    if (!response.ok) {
      ctx.log.warn({ status: response.status, subscription: subscription.id }, "push refused");
      return "failed";
    }
    return "sent";
  } catch (error) {
    ctx.log.warn({ err: error, subscription: subscription.id }, "push failed");
    return "failed";
  }
}
