import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { endAdsOfPost } from "../ads/lifecycle";
import { processPendingRefunds } from "../ads/refunds";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import {
  account,
  chatMembers,
  chats,
  dataExports,
  listingWatches,
  loginThrottle,
  mailOutbox,
  meetups,
  notificationSettings,
  notifications,
  offers,
  postLikes,
  pushSubscriptions,
  realtimeCursors,
  realtimeEvents,
  realtimePresence,
  reputations,
  reviews,
  savedSearches,
  searchHistory,
  session,
  staffRoles,
  user,
  userBlocks,
  verification,
  verificationCodes,
} from "../db/schema";
import { deleteStoredKeys } from "../media/images";
import { storedPhotoKeys } from "../profiles/profiles";
import { appendModerationLog } from "../staff/moderation-log";
import { recountReputation } from "../trade/reputation";
import { removeExportFiles } from "./export-files";

/**
 * Decision 0571: what deleting an account does, in one transaction, following the table list of
 * ./account-tables.ts; the stored files go after the commit. Called by deleteAccount
 * (./deletion.ts) once the password or the mailed code confirmed it.
 */

/** The name every screen shows for a deleted account (decision 0571). */
export const DELETED_FIRST_NAME = "Deleted";
export const DELETED_LAST_NAME = "account";

/** Days the username and the e-mail addresses stay reserved after a deletion (decision 0571). */
export const NAMES_RESERVED_DAYS = 30;

export interface ErasedAccount {
  /** Sessions' tokens, for the caller's session cache. */
  sessionTokens: string[];
  /** The address the goodbye mail goes to (read before the row was cleared). */
  email: string;
  campusId: string;
}

/** Every stored file of the rows about to go: posts' media, chat photos of chats no one is left in. */
async function filesOf(tx: Tx): Promise<string[]> {
  const result = await tx.execute(sql`
    select img_path as key from post_media where post_id in (select id from doomed_posts)
    union all
    select thumb_path from post_media where post_id in (select id from doomed_posts) and thumb_path is not null`);
  return (result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key);
}

/**
 * The posts and comments of the student and every reply below them, in a temporary table the
 * statements below share (dropped at commit). Replies of others under the student's posts go with
 * them, as when the student deletes one post (server/posts/removal.ts).
 */
async function collectDoomedPosts(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    create temporary table doomed_posts on commit drop as
    with recursive doomed(id) as (
      select id from posts where author_id = ${userId}
      union
      select p.id from posts p join doomed d on p.parent_id = d.id
    )
    select id from doomed`);
  await tx.execute(sql`create index on doomed_posts (id)`);
  await tx.execute(sql`analyze doomed_posts`);
}

/**
 * The counts others see stay right (spec 2 §4, as deletePost keeps them): a surviving post loses
 * the student's save, a surviving parent the deleted replies directly under it. The student's own
 * totalPosts goes with their posts; no other author loses a top-level post here.
 */
async function fixCounts(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    update posts p set like_count = greatest(p.like_count - 1, 0)
    from post_likes l
    where l.user_id = ${userId} and l.post_id = p.id and p.id not in (select id from doomed_posts)`);
  await tx.execute(sql`
    update posts p set comment_count = greatest(p.comment_count - c.n, 0)
    from (
      select parent_id, count(*)::int as n from posts
      where id in (select id from doomed_posts) and parent_id is not null
        and parent_id not in (select id from doomed_posts)
      group by parent_id
    ) c
    where p.id = c.parent_id`);
}

/** Decision 0521: a deleted account holds no staff role; each revocation is logged as the system's. */
async function revokeRoles(tx: Tx, userId: string, at: Date): Promise<void> {
  const roles = await tx
    .delete(staffRoles)
    .where(eq(staffRoles.userId, userId))
    .returning({ role: staffRoles.role, campusId: staffRoles.campusId });
  for (const role of roles) {
    await appendModerationLog(tx, {
      campusId: role.campusId,
      actorId: null,
      actorRole: null,
      source: "system",
      action: "revoke_role",
      targetKind: "user",
      targetId: userId,
      targetUserId: userId,
      details: { role: role.role, reason: "account deleted" },
      at,
    });
  }
}

/**
 * Deletes the account `userId` (decision 0571). Returns null when there is no such live account.
 * A deal in progress would stop the deletion here ('finish or cancel it first'); deals do not
 * exist yet (decision 0571).
 */
export async function eraseAccount(ctx: AppContext, userId: string): Promise<ErasedAccount | null> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    const [me] = await tx
      .select({
        id: user.id,
        email: user.email,
        schoolEmail: user.schoolEmail,
        img: user.img,
        campusId: user.campusId,
      })
      .from(user)
      .where(and(eq(user.id, userId), isNull(user.deletedAt)))
      .for("update");
    if (!me) return null;
    const addresses = [me.email, ...(me.schoolEmail ? [me.schoolEmail] : [])].map((a) => a.toLowerCase());

    await collectDoomedPosts(tx, userId);
    const keys = [...(await filesOf(tx)), ...storedPhotoKeys(ctx.storage, me.img)];
    // Decision 0272: a running or paused ad of a deleted post ends and its unused days are refunded.
    const adPosts = await tx.execute(sql`
      select distinct post_id from ads
      where user_id = ${userId} and status in ('active', 'paused', 'checkout')`);
    for (const row of (adPosts as unknown as { rows: { post_id: string }[] }).rows) {
      await endAdsOfPost(ctx, tx, row.post_id, "Refund: account deleted");
    }
    await fixCounts(tx, userId);
    await tx.delete(postLikes).where(eq(postLikes.userId, userId));
    await tx.delete(listingWatches).where(eq(listingWatches.userId, userId));
    // The search dictionary's trigger runs per deleted post; with migration 0020's indexes the
    // planner's own choice is as fast as forcing the dictionary's primary key (decision 0575).
    await tx.execute(sql`delete from posts where id in (select id from doomed_posts)`);
    // Ads of posts that are gone went with them (cascade); none other can be the student's.
    await tx.execute(sql`delete from ads where user_id = ${userId}`);

    // Chats: the student's side goes; a chat nobody is left in goes with its photos.
    await tx.delete(chatMembers).where(eq(chatMembers.userId, userId));
    const orphanPhotos = await tx.execute(sql`
      select m.img_path, m.thumb_path from chat_messages m join chats c on c.id = m.chat_id
      where (c.from_user_id = ${userId} or c.to_user_id = ${userId}) and m.img_path is not null
        and not exists (select 1 from chat_members cm where cm.chat_id = c.id)`);
    for (const row of (orphanPhotos as unknown as { rows: { img_path: string; thumb_path: string | null }[] })
      .rows) {
      keys.push(row.img_path, ...(row.thumb_path ? [row.thumb_path] : []));
    }
    await tx
      .delete(chats)
      .where(
        and(
          or(eq(chats.fromUserId, userId), eq(chats.toUserId, userId)),
          sql`not exists (select 1 from chat_members cm where cm.chat_id = ${chats.id})`,
        ),
      );

    await tx.delete(userBlocks).where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId)));
    // The trade (decision 0571): offers and meetups either way, reviews by and of the student.
    await tx.delete(offers).where(or(eq(offers.buyerId, userId), eq(offers.sellerId, userId)));
    await tx.delete(meetups).where(or(eq(meetups.proposedBy, userId), eq(meetups.proposedTo, userId)));
    const reviewed = await tx
      .selectDistinct({ subjectId: reviews.subjectId })
      .from(reviews)
      .where(eq(reviews.authorId, userId));
    await tx.delete(reviews).where(or(eq(reviews.authorId, userId), eq(reviews.subjectId, userId)));
    // Decision 0616: the people the student reviewed are recounted without those reviews.
    for (const row of reviewed) {
      if (row.subjectId !== userId) await recountReputation(tx, ctx, row.subjectId);
    }
    await tx.delete(reputations).where(eq(reputations.userId, userId));
    // Saved searches (decision 0620); their hits go with them.
    await tx.delete(savedSearches).where(eq(savedSearches.userId, userId));
    await tx
      .delete(notifications)
      .where(or(eq(notifications.userId, userId), eq(notifications.actorId, userId)));
    await tx.delete(notificationSettings).where(eq(notificationSettings.userId, userId));
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await tx.delete(searchHistory).where(eq(searchHistory.userId, userId));
    await tx.delete(realtimeEvents).where(eq(realtimeEvents.userId, userId));
    await tx.delete(realtimeCursors).where(eq(realtimeCursors.userId, userId));
    await tx.delete(realtimePresence).where(eq(realtimePresence.userId, userId));
    await tx.delete(verificationCodes).where(eq(verificationCodes.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    const sessions = await tx
      .delete(session)
      .where(eq(session.userId, userId))
      .returning({ token: session.token });
    // better-auth's links hold the id (a password reset) or the address (a sign-in link) in `value`.
    await tx
      .delete(verification)
      .where(
        or(
          eq(verification.value, userId),
          sql`position(${userId} in ${verification.identifier}) > 0`,
          ...addresses.map((address) => sql`position(${address} in lower(${verification.value})) > 0`),
        ),
      );
    await tx
      .delete(loginThrottle)
      .where(
        or(
          sql`position(${userId} in ${loginThrottle.key}) > 0`,
          ...addresses.map((address) => sql`position(${address} in ${loginThrottle.key}) > 0`),
        ),
      );
    await tx.delete(mailOutbox).where(or(eq(mailOutbox.userId, userId), inArray(mailOutbox.to, addresses)));
    await revokeRoles(tx, userId, now);
    const exports = await tx
      .delete(dataExports)
      .where(eq(dataExports.userId, userId))
      .returning({ file: dataExports.file });

    // The tombstone (decision 0571): the row stays for the other side's conversations and the
    // payment records; the username and the addresses stay until the release job frees them.
    await tx
      .update(user)
      .set({
        name: `${DELETED_FIRST_NAME} ${DELETED_LAST_NAME}`,
        firstName: DELETED_FIRST_NAME,
        lastName: DELETED_LAST_NAME,
        img: null,
        bio: null,
        phone: null,
        gender: null,
        birthDate: null,
        gradYear: null,
        verified: false,
        schoolVerified: false,
        // Decisions 0650 and 0680: the badge's period, the trust level and its staff lock, the
        // safety flag and the message setting belong to the person, not to the tombstone.
        schoolVerifiedAt: null,
        badgeReminderSentAt: null,
        trustLevel: 0,
        trustLockedAt: null,
        trustLockedBy: null,
        conversationsLimitedUntil: null,
        messagePolicy: "anyone",
        profileSetUp: false,
        gettingStarted: false,
        emailNotifications: false,
        totalPosts: 0,
        redirectTo: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(user.id, userId));
    return {
      keys,
      exportFiles: exports.flatMap((row) => (row.file ? [row.file] : [])),
      sessionTokens: sessions.map((row) => row.token),
      email: me.email,
      campusId: me.campusId,
    };
  });
  if (!outcome) return null;

  const failed = await deleteStoredKeys(ctx.storage, outcome.keys);
  if (failed.length > 0)
    ctx.log.error({ keys: failed }, "a deleted account's files could not all be removed");
  await removeExportFiles(ctx, outcome.exportFiles);
  await processPendingRefunds(ctx);
  return { sessionTokens: outcome.sessionTokens, email: outcome.email, campusId: outcome.campusId };
}
