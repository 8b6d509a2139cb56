import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { signIn } from "../accounts/accounts";
import { getViewerById, type Viewer } from "../accounts/viewer";
import { listChats } from "../chats/conversations";
import { listMessages } from "../chats/messages";
import { countUnreadChats } from "../chats/read-state";
import type { MediaStorage } from "../media/storage";
import { listFeed } from "../posts/feed";
import { createPost, deletePost, getPost } from "../posts/posts";
import { plainTextToRichText } from "../posts/rich-text.shared";
import { getStaffMember } from "../staff/roles";
import { meetupSpots, moderationLog, postMedia, posts, user } from "./schema";
import { seedDemoData } from "./seed";
import { DEMO_PASSWORD } from "./seed-data";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedDemoData(t.ctx);
});
afterAll(() => t.close());

async function demoViewer(username: string): Promise<Viewer> {
  const [row] = await t.ctx.db.select({ id: user.id }).from(user).where(eq(user.username, username));
  const viewer = row ? await getViewerById(t.ctx, row.id) : null;
  if (!viewer) throw new Error(`no demo student ${username}`);
  return viewer;
}

describe("demo data (docs/contract.md: seeded into an empty database unless SEED_DEMO=0)", () => {
  it("adds school-verified demo students whose posts show in their campus feed", async () => {
    const students = await t.ctx.db.select().from(user);
    expect(students).toHaveLength(3);
    expect(students.every((s) => s.verified && s.schoolVerified)).toBe(true);
    const feed = await listFeed(t.ctx, null, { campusId: "ou" });
    expect(feed.items.filter((item) => item.type === "new user")).toHaveLength(2);
    // The sold listing is left out of the default feed (decision 0170).
    expect(feed.items.filter((item) => item.type === "post")).toHaveLength(7);
  });

  it("makes Marcus the OU moderator and Priya a site admin, logged as the seed's (decision 0520)", async () => {
    const marcus = await getStaffMember(t.ctx.db, (await demoViewer("marcusj")).id);
    expect(marcus).toMatchObject({ siteAdmin: false, moderatedCampusIds: ["ou"] });
    expect(await getStaffMember(t.ctx.db, (await demoViewer("priyak")).id)).toMatchObject({
      siteAdmin: true,
    });
    expect(await getStaffMember(t.ctx.db, (await demoViewer("oliviam")).id)).toBeNull();
    const log = await t.ctx.db.select().from(moderationLog);
    expect(log.map((entry) => [entry.action, entry.source, entry.campusId])).toEqual([
      ["grant_role", "seed", "ou"],
      ["grant_role", "seed", null],
    ]);
  });

  it("gives every demo student a profile photo and a bio, so each can post (decision 0450)", async () => {
    for (const username of ["oliviam", "marcusj", "priyak"]) {
      const viewer = await demoViewer(username);
      expect(viewer.profileSetUp).toBe(true);
      // The photo went through the profile photo pipeline: both WebP sizes are stored.
      expect(viewer.img).toMatch(/-480\.webp$/);
      const key = t.storage.keyOf(viewer.img ?? "");
      expect(key && (await t.storage.get(key))).toBeTruthy();
      expect(key && (await t.storage.get(key.replace(/-480\.webp$/, "-160.webp")))).toBeTruthy();
      const { id } = await createPost(t.ctx, viewer, {
        campusId: viewer.campusId,
        text: plainTextToRichText(`First post by ${username}`),
      });
      expect(await getPost(t.ctx, viewer, { postId: id, campusId: viewer.campusId })).toMatchObject({
        ownedByViewer: true,
      });
      await deletePost(t.ctx, viewer, id);
    }
  });

  it("lists a dozen priced listings with photos on the demo campuses, one sold and one wanted", async () => {
    const viewer = await demoViewer("oliviam");
    const ou = await listFeed(t.ctx, viewer, { campusId: "ou", showSold: true });
    const ut = await listFeed(t.ctx, await demoViewer("priyak"), { campusId: "ut", showSold: true });
    const listings = [...ou.items, ...ut.items].filter((item) => item.type === "post");
    expect(listings).toHaveLength(12);
    expect(new Set(listings.map((post) => post.category)).size).toBeGreaterThanOrEqual(10);
    for (const post of listings) {
      expect(post.imgCount).toBe(1);
      expect(post.firstMedia?.thumbUrl).toMatch(/-480\.webp$/);
      expect(post.listing.priceCents).not.toBeNull();
      if (post.listing.kind === "selling") expect(post.listing.condition).not.toBeNull();
    }
    expect(listings.filter((post) => post.listing.status === "sold")).toHaveLength(1);
    expect(listings.filter((post) => post.listing.kind === "wanted")).toHaveLength(1);
    expect(listings.filter((post) => post.listing.priceCents === 0)).toHaveLength(1);
    expect(listings.some((post) => post.listing.priceTerms === "firm")).toBe(true);
    expect(listings.some((post) => post.listing.priceTerms === "offers")).toBe(true);
    // Posted over a few days before the seed ran, none in the future.
    const ages = listings.map((post) => t.clock.now().getTime() - post.createdAt.getTime());
    expect(Math.min(...ages)).toBeGreaterThan(0);
    expect(Math.max(...ages)).toBeGreaterThan(3 * 24 * 60 * 60 * 1000);
    // The photos are in storage, as an upload's would be: two WebP sizes with their dimensions.
    const media = await t.ctx.db.select().from(postMedia);
    expect(media).toHaveLength(12);
    for (const row of media) {
      expect(row.imgWidth).toBe(1080);
      expect(await t.storage.get(row.imgPath)).not.toBeNull();
      expect(await t.storage.get(row.thumbPath ?? "")).not.toBeNull();
    }
    // The authors' counters are what createPost keeps.
    const counts = await t.ctx.db.select({ totalPosts: user.totalPosts }).from(user);
    expect(counts.map((row) => row.totalPosts).sort()).toEqual([4, 4, 4]);
  });

  it("starts one conversation about a listing, its last message unread by Olivia", async () => {
    const olivia = await demoViewer("oliviam");
    const marcus = await demoViewer("marcusj");
    const chats = await listChats(t.ctx, olivia);
    expect(chats.items).toHaveLength(1);
    expect(chats.items[0]).toMatchObject({ unread: true, other: { username: "marcusj" } });
    expect(await countUnreadChats(t.ctx, olivia)).toBe(1);
    expect(await countUnreadChats(t.ctx, marcus)).toBe(0);
    const messages = await listMessages(t.ctx, olivia, chats.items[0]?.id ?? "");
    expect(messages.items).toHaveLength(4);
    expect(messages.items[0]).toMatchObject({ own: true, sharedPost: { deleted: false } });
    expect(messages.items[0]?.sharedPost).toMatchObject({ author: expect.stringContaining("Marcus") });
    expect(messages.items[3]).toMatchObject({ own: false });
    expect((await listChats(t.ctx, await demoViewer("priyak"))).items).toHaveLength(0);
  });

  it("lets a demo student log in with the documented password", async () => {
    const result = await signIn(
      t.ctx,
      t.auth,
      { email: "olivia@demo.campusbuysell.test", password: DEMO_PASSWORD },
      { clientIp: "127.0.0.1", headers: new Headers() },
    );
    expect(result.verified).toBe(true);
    expect(result.headers.get("set-cookie")).toContain("session_token");
  });

  it("never seeds a database that already has users", async () => {
    const [before] = await t.ctx.db.select({ count: sql<number>`count(*)::int` }).from(posts);
    const storedBefore = t.storage.objects.size;
    await seedDemoData(t.ctx);
    const [after] = await t.ctx.db.select({ count: sql<number>`count(*)::int` }).from(posts);
    expect(after?.count).toBe(before?.count);
    expect(t.storage.objects.size).toBe(storedBefore);
    const olivia = await t.ctx.db.select().from(user).where(eq(user.username, "oliviam"));
    expect(olivia).toHaveLength(1);
  });
});

describe("a demo seed that fails (decision 0450)", () => {
  it("leaves no users and no files behind, so the next start seeds again", async () => {
    const fresh = await createTestContext();
    try {
      // Storage that gives out after a few photos, as a full disk would.
      let puts = 0;
      const failing: MediaStorage = {
        ...fresh.storage,
        put: async (key, bytes, contentType) => {
          if (++puts > 8) throw new Error("disk full");
          await fresh.storage.put(key, bytes, contentType);
        },
      };
      await expect(seedDemoData({ ...fresh.ctx, storage: failing })).rejects.toThrow("disk full");
      const [users] = await fresh.ctx.db.select({ count: sql<number>`count(*)::int` }).from(user);
      expect(users?.count).toBe(0);
      expect(fresh.storage.objects.size).toBe(0);

      await seedDemoData(fresh.ctx);
      const [seeded] = await fresh.ctx.db.select({ count: sql<number>`count(*)::int` }).from(user);
      expect(seeded?.count).toBe(3);
    } finally {
      await fresh.close();
    }
  });
});

describe("two processes starting on one empty database (decision 0450)", () => {
  it("seed once: the second waits for the first and finds its users", async () => {
    const fresh = await createTestContext();
    try {
      await Promise.all([seedDemoData(fresh.ctx), seedDemoData(fresh.ctx)]);
      const [users] = await fresh.ctx.db.select({ count: sql<number>`count(*)::int` }).from(user);
      expect(users?.count).toBe(3);
      // Only one seed's files are stored: two sizes of each listing photo and of each profile photo.
      const [media] = await fresh.ctx.db.select({ count: sql<number>`count(*)::int` }).from(postMedia);
      expect(fresh.storage.objects.size).toBe(2 * (media?.count ?? 0) + 2 * 3);
    } finally {
      await fresh.close();
    }
  });
});

describe("the demo's meetup spots (decision 0610)", () => {
  it("gives OU three and UT two, each saying it is a demo spot, and no other campus any", async () => {
    const spots = await t.ctx.db.select().from(meetupSpots);
    const count = (campusId: string) => spots.filter((spot) => spot.campusId === campusId).length;
    expect([count("ou"), count("ut"), spots.length]).toEqual([3, 2, 5]);
    expect(spots.every((spot) => spot.rules.endsWith("Demo spot.") && spot.archivedAt === null)).toBe(true);
  });
});
