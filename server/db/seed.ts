import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { getViewerById, type Viewer } from "../accounts/viewer";
import { markChatRead, sendMessage, startConversation } from "../chats/chats";
import type { AppContext } from "../context";
import { deleteStoredKeys } from "../media/images";
import type { MediaStorage } from "../media/storage";
import type { ListingInput } from "../posts/input";
import { setListingStatus } from "../posts/listing-status";
import { insertNewUserPost } from "../posts/new-user-post";
import { createPost } from "../posts/posts";
import { plainTextToRichText } from "../posts/rich-text";
import { updateBio, updateProfilePhoto } from "../profiles/profiles";
import { grantRole, type RoleGrant } from "../staff/roles";
import type { Queryable, Tx } from "./client";
import { account, user } from "./schema";
import { type DemoDrawing, drawAvatar, drawListingPhoto } from "./seed-images";

/** Demo students for a first look (README 'Demo accounts'); all share one password. */
export const DEMO_PASSWORD = "campus123";

const HOUR_MS = 60 * 60 * 1000;

/** Decision 0520: Marcus moderates OU and Priya is a site admin, so the staff pages can be tried. */
export const DEMO_STAFF: readonly (readonly [string, RoleGrant])[] = [
  ["marcusj", { role: "campus_moderator", campusId: "ou" }],
  ["priyak", { role: "site_admin", campusId: null }],
];

interface DemoListing {
  /** The picture drawn for it (seed-images.ts) and the name on its tag. */
  drawing: DemoDrawing;
  name: string;
  text: string;
  category: string;
  listing: ListingInput;
  /** How long before the seed it was posted. */
  hoursAgo: number;
  /** Marked sold this many hours before the seed. */
  soldHoursAgo?: number;
}

interface DemoStudent {
  first: string;
  last: string;
  username: string;
  email: string;
  schoolEmail: string;
  campusId: string;
  bio: string;
  avatarColours: [string, string];
  listings: DemoListing[];
}

// School e-mails use the campus domain (so the demo students are members of
// their campus) under a `demo.` subdomain nobody receives mail on.
const demoStudents: DemoStudent[] = [
  {
    first: "Olivia",
    last: "M.",
    username: "oliviam",
    email: "olivia@demo.campusbuysell.test",
    schoolEmail: "olivia@demo.ou.edu",
    campusId: "ou",
    bio: "Junior in architecture. Selling what no longer fits in my apartment.",
    avatarColours: ["#ff7e5f", "#c850c0"],
    listings: [
      {
        drawing: "textbook",
        name: "Calculus, 8th ed.",
        text: "Calculus: Early Transcendentals, 8th edition (Stewart). Used for MATH 1823 and 2423.\nClean, no highlighting, cover slightly bent.",
        category: "books/movies/music",
        listing: { price: "40", priceTerms: "firm", condition: "good" },
        hoursAgo: 90,
      },
      {
        drawing: "desk",
        name: "Oak writing desk",
        text: "Mid-century writing desk, solid oak, 120 x 60 cm, one drawer.\nPick up near Campus Corner, I can help carry it down.",
        category: "furniture",
        listing: { price: "85", priceTerms: "offers", condition: "good" },
        hoursAgo: 70,
      },
      {
        drawing: "calculator",
        name: "TI-84 wanted",
        text: "Looking for a TI-84 Plus graphing calculator for stats this semester. Up to $50 depending on condition, can meet at Bizzell.",
        category: "school supplies",
        listing: { price: "50", listingKind: "wanted" },
        hoursAgo: 30,
      },
      {
        drawing: "lamp",
        name: "Desk lamp",
        text: "Adjustable desk lamp with a warm LED bulb. Works perfectly, just redecorating.",
        category: "home decor",
        listing: { price: "18", priceTerms: "offers", condition: "like_new" },
        hoursAgo: 3,
      },
    ],
  },
  {
    first: "Marcus",
    last: "J.",
    username: "marcusj",
    email: "marcus@demo.campusbuysell.test",
    schoolEmail: "marcus@demo.ou.edu",
    campusId: "ou",
    bio: "Engineering senior, cyclist, occasional seller of spare parts.",
    avatarColours: ["#2193b0", "#6dd5ed"],
    listings: [
      {
        drawing: "bike",
        name: "Road bike, 54 cm",
        text: "Aluminium road bike, 54 cm frame, 18 speeds. New tyres and chain in September.\nGreat for getting across campus fast.",
        category: "sports & outdoors",
        listing: { price: "220", priceTerms: "offers", condition: "good" },
        hoursAgo: 100,
      },
      {
        drawing: "headphones",
        name: "Noise-cancelling headphones",
        text: "Over-ear noise-cancelling headphones, 30 h battery, case and cable included.",
        category: "audio & speakers",
        listing: { price: "90", priceTerms: "firm", condition: "like_new" },
        hoursAgo: 80,
        soldHoursAgo: 40,
      },
      {
        drawing: "tickets",
        name: "2 game tickets",
        text: "Two tickets for Saturday's home game, section 14, row F.\nFace value, meet at the union.",
        category: "tickets",
        listing: { price: "35", priceTerms: "firm", condition: "new" },
        hoursAgo: 50,
      },
      {
        drawing: "keyboard",
        name: "Mechanical keyboard",
        text: "Mechanical keyboard, tactile switches, white keycaps. USB-C cable included.",
        category: "computers & accessories",
        listing: { price: "45", priceTerms: "offers", condition: "good" },
        hoursAgo: 20,
      },
    ],
  },
  {
    first: "Priya",
    last: "K.",
    username: "priyak",
    email: "priya@demo.campusbuysell.test",
    schoolEmail: "priya@demo.utexas.edu",
    campusId: "ut",
    bio: "Grad student in public health. Moving out in May.",
    avatarColours: ["#11998e", "#38ef7d"],
    listings: [
      {
        drawing: "fridge",
        name: "Mini fridge",
        text: "Mini fridge, 3.1 cu ft, works perfectly and fits under a dorm desk.",
        category: "household",
        listing: { price: "50", priceTerms: "firm", condition: "good" },
        hoursAgo: 96,
      },
      {
        drawing: "rice-cooker",
        name: "Rice cooker",
        text: "6-cup rice cooker with steamer basket. Used twice, moving out.",
        category: "kitchen & dining",
        listing: { price: "15", priceTerms: "offers", condition: "like_new" },
        hoursAgo: 60,
      },
      {
        drawing: "guitar",
        name: "Acoustic guitar",
        text: "Acoustic guitar, full size, with soft case and a spare set of strings. A few scratches, sounds great.",
        category: "musical instruments",
        listing: { price: "120", priceTerms: "offers", condition: "fair" },
        hoursAgo: 26,
      },
      {
        drawing: "plant",
        name: "Monstera",
        text: "Free monstera in a terracotta pot to a good home. Pick up in West Campus this week.",
        category: "home decor",
        listing: { priceTerms: "free", condition: "good" },
        hoursAgo: 5,
      },
    ],
  },
];

/** A conversation between two OU demo students about Marcus's bike, oldest message first. */
const demoConversation: { about: DemoDrawing; messages: { from: string; hoursAgo: number; text: string }[] } =
  {
    about: "bike",
    messages: [
      {
        from: "oliviam",
        hoursAgo: 28,
        text: "Hi Marcus! Is the road bike still available? I could come by Thursday after 4.",
      },
      {
        from: "marcusj",
        hoursAgo: 27,
        text: "Hi Olivia, yes it is. Thursday works, I'm at the bike racks by the union.",
      },
      { from: "oliviam", hoursAgo: 26, text: "Perfect, see you at 4:30. Would you take $200?" },
      { from: "marcusj", hoursAgo: 25, text: "Deal at $200. Bring a light if you're riding it home!" },
    ],
  };

/** The demo students join a week before the seed runs, so their listings have room for a few days of ages. */
const JOINED_HOURS_AGO = 7 * 24;

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
 * Seeds demo data only into an empty database, so it never touches real users (CONTRACT.md:
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
        // spec 1 §4: photo and bio set up the profile, which posting needs (spec 2 §5; issue 27).
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
      // Issue 11 §1: the owner marks it sold, at its own moment after it was posted.
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
