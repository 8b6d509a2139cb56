import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { getViewerById, type Viewer } from "../accounts/viewer";
import { startConversation } from "../chats/conversations";
import { sendMessage } from "../chats/messages";
import { markChatRead } from "../chats/read-state";
import type { AppContext } from "../context";
import { deleteStoredKeys } from "../media/images";
import type { MediaStorage } from "../media/storage";
import { setListingStatus } from "../posts/listing-status";
import { insertNewUserPost } from "../posts/new-user-post";
import { createPost } from "../posts/posts";
import { plainTextToRichText } from "../posts/rich-text.shared";
import { updateBio, updateProfilePhoto } from "../profiles/profiles";
import { grantRole } from "../staff/roles";
import type { Queryable, Tx } from "./client";
import { account, meetupSpots, user } from "./schema";
import {
  DEMO_MEETUP_SPOTS,
  DEMO_PASSWORD,
  DEMO_STAFF,
  type DemoStudent,
  demoConversation,
  demoStudents,
  HOUR_MS,
  JOINED_HOURS_AGO,
} from "./seed-data";
import { type DemoDrawing, drawAvatar, drawListingPhoto } from "./seed-images";

/** Any constant: two processes starting on one empty PostgreSQL database seed one after the other. */
const SEED_LOCK_ID = 270450;

/** The storage seam, remembering what it wrote so a failed seed can take it back. */
function recordingStorage(storage: MediaStorage): { storage: MediaStorage; written: string[] } {
  const written: string[] = [];
  return {
    written,
    storage: {
      put: async (key, bytes, contentType) => {
        written.push(key);
        await storage.put(key, bytes, contentType);
      },
      putStream: async (key, body, contentType) => {
        written.push(key);
        await storage.putStream(key, body, contentType);
      },
      get: (key, range) => storage.get(key, range),
      delete: (key) => storage.delete(key),
      url: (key) => storage.url(key),
      keyOf: (url) => storage.keyOf(url),
    },
  };
}

/**
 * Seeds demo data only into an empty database, so it never touches real users (docs/contract.md:
 * unless SEED_DEMO=0). Decision 0450: everything goes through the domain functions a student's
 * requests use (profile photo and bio, createPost with photos and listing fields, the sold mark,
 * a conversation), each run at its moment on a clock set back to it, so the demo students pass
 * the posting gate and every derived column and counter is what the app itself would write. It
 * is one transaction: a failure leaves no users behind (and its stored files are removed), so the
 * next start tries again.
 */
export async function seedDemoData(ctx: AppContext): Promise<void> {
  // Every start asks: a database with users is left alone before anything is drawn.
  if (await hasUsers(ctx.db)) return;
  const started = performance.now();
  const now = ctx.clock.now().getTime();
  // Drawn before the transaction: nothing to do with the database, and it keeps the lock short.
  const avatars = await Promise.all(
    demoStudents.map((student) => drawAvatar(`${student.first[0]}${student.last[0]}`, student.avatarColours)),
  );
  const photos = await Promise.all(
    demoStudents.map((student) =>
      Promise.all(student.listings.map((listing) => drawListingPhoto(listing.drawing, listing.name))),
    ),
  );
  const password = await hashPassword(DEMO_PASSWORD);
  const { storage, written } = recordingStorage(ctx.storage);

  let seeded = false;
  try {
    seeded = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
      if (await hasUsers(tx)) return false;

      // The domain functions open their own transactions: on `tx` those are savepoints inside this one.
      const at = (hoursAgo: number): AppContext => ({
        ...ctx,
        db: tx,
        storage,
        clock: { now: () => new Date(now - hoursAgo * HOUR_MS) },
      });
      const viewers = new Map<string, Viewer>();
      const postIds = new Map<DemoDrawing, string>();
      for (const [index, student] of demoStudents.entries()) {
        const joinedAgo = JOINED_HOURS_AGO - index;
        const id = await insertDemoStudent(tx, student, password, new Date(now - joinedAgo * HOUR_MS));
        const joined = at(joinedAgo);
        // spec 1 §4: photo and bio set up the profile, which posting needs (spec 2 §5; decision 0450).
        await updateProfilePhoto(joined, { id }, avatars[index] ?? new Uint8Array());
        await updateBio(joined, { id }, student.bio);
        const viewer = await getViewerById(joined, id);
        if (!viewer) throw new Error(`demo student ${student.username} was not stored`);
        viewers.set(student.username, viewer);
        for (const [order, listing] of student.listings.entries()) {
          const photo = photos[index]?.[order];
          const { id: postId } = await createPost(at(listing.hoursAgo), viewer, {
            campusId: student.campusId,
            text: plainTextToRichText(listing.text),
            category: listing.category,
            files: photo ? [new Blob([photo], { type: "image/jpeg" })] : [],
            listing: listing.listing,
          });
          postIds.set(listing.drawing, postId);
        }
      }
      // Decision 0170: the owner marks it sold, at its own moment after it was posted.
      for (const student of demoStudents) {
        for (const listing of student.listings) {
          const postId = postIds.get(listing.drawing);
          if (listing.soldHoursAgo === undefined || !postId) continue;
          await setListingStatus(at(listing.soldHoursAgo), viewers.get(student.username) ?? null, {
            postId,
            status: "sold",
          });
        }
      }
      await seedConversation(at, viewers, postIds.get(demoConversation.about) ?? null);
      // Decision 0520: the demo's staff (README 'Demo accounts'), logged as the seed's grants.
      for (const [username, grant] of DEMO_STAFF) {
        const viewer = viewers.get(username);
        if (!viewer) throw new Error(`demo staff ${username} is not a demo student`);
        await grantRole(tx, new Date(now), viewer.id, grant, { source: "seed" });
      }
      // Decision 0610: the demo's meetup spots, only with the demo students (never on a real site's data).
      await tx.insert(meetupSpots).values(
        DEMO_MEETUP_SPOTS.map((spot, index) => ({
          ...spot,
          position: index + 1,
          createdAt: new Date(now),
        })),
      );
      return true;
    });
  } catch (error) {
    await deleteStoredKeys(ctx.storage, written);
    throw error;
  }
  // Another process seeded first (it held the lock); this one stored nothing.
  if (!seeded) return;
  ctx.log.info(
    {
      users: demoStudents.map((s) => s.email),
      password: DEMO_PASSWORD,
      ms: Math.round(performance.now() - started),
    },
    "seeded demo students",
  );
}

async function hasUsers(db: Queryable): Promise<boolean> {
  const [row] = await db.select({ id: user.id }).from(user).limit(1);
  return row !== undefined;
}

/**
 * The account itself: signed up, e-mail and school verified (there is no mail to click through).
 * E-mail notifications are off because the demo addresses receive no mail (decision 0450).
 */
async function insertDemoStudent(
  tx: Tx,
  student: DemoStudent,
  password: string,
  joined: Date,
): Promise<string> {
  const id = crypto.randomUUID();
  await tx.insert(user).values({
    id,
    name: `${student.first} ${student.last}`,
    email: student.email,
    verified: true,
    firstName: student.first,
    lastName: student.last,
    username: student.username,
    campusId: student.campusId,
    schoolEmail: student.schoolEmail,
    schoolVerified: true,
    // Decision 0680: the badge counts from the day the seed's student joined.
    schoolVerifiedAt: joined,
    emailNotifications: false,
    createdAt: joined,
    updatedAt: joined,
  });
  await tx.insert(account).values({
    id: crypto.randomUUID(),
    accountId: id,
    providerId: "credential",
    userId: id,
    password,
    createdAt: joined,
    updatedAt: joined,
  });
  // spec 1 §4: school verification announces the new member.
  await insertNewUserPost(tx, { authorId: id, campusId: student.campusId, at: joined });
  return id;
}

/**
 * spec 2 §4 'Chat': the first message shares the listing as a card; each reply is sent after the
 * previous message was read, and the last one stays unread, so Olivia's first look shows a badge.
 */
async function seedConversation(
  at: (hoursAgo: number) => AppContext,
  viewers: ReadonlyMap<string, Viewer>,
  postId: string | null,
): Promise<void> {
  let chatId: string | null = null;
  for (const message of demoConversation.messages) {
    const sender = viewers.get(message.from) ?? null;
    const recipient = [...viewers.values()].find(
      (viewer) => viewer.id !== sender?.id && viewer.campusId === sender?.campusId,
    );
    if (!sender || !recipient) throw new Error("the demo conversation needs two students of one campus");
    const ctx = at(message.hoursAgo);
    if (chatId === null) {
      ({ chatId } = await startConversation(ctx, sender, {
        recipientId: recipient.id,
        text: message.text,
        postId,
      }));
    } else {
      await markChatRead(ctx, sender, chatId);
      await sendMessage(ctx, sender, chatId, { text: message.text });
    }
  }
}
