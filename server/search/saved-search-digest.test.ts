import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as unsubscribeRoute from "../../app/routes/notifications/unsubscribe-search";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { campusOrigin } from "../campuses/campuses";
import { blockUser } from "../chats/blocks";
import { mailOutbox, posts, savedSearches, savedSearchHits, user } from "../db/schema";
import { deliverMailRound } from "../mail/worker";
import {
  DIGEST_LISTED,
  lastDigestTime,
  runSavedSearchDigest,
  SAVED_SEARCH_DIGEST_MAIL_KIND,
} from "./saved-search-digest";
import {
  findSavedSearchByUnsubscribeToken,
  saveSearch,
  setSavedSearchCadence,
  unsubscribeSavedSearch,
} from "./saved-searches";

// OU is in Oklahoma: Central Time (decision 0614). 2026-03-02 is CST (UTC-6), so 08:00 there is 14:00 UTC.
const MONDAY_0900_CST = new Date("2026-03-02T15:00:00Z");
const TUESDAY_0759_CST = new Date("2026-03-03T13:59:00Z");
const TUESDAY_0801_CST = new Date("2026-03-03T14:01:00Z");
const WEDNESDAY_0801_CST = new Date("2026-03-04T14:01:00Z");

let t: TestContext;
let seller: TestMember;
let server: RouteServer;
const ROUTE_ID = "routes/notifications/unsubscribe-search";

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
  seller = await createTestMember(t, { fullName: "Sol Seller" });
  server = await startRouteServer(t, [
    { id: ROUTE_ID, path: "notifications/unsubscribe/search", module: unsubscribeRoute },
  ]);
});
afterAll(async () => {
  await server.close();
  await t.close();
});
beforeEach(() => t.clock.set(MONDAY_0900_CST));

async function dailySearch(student: TestMember, q: string): Promise<string> {
  const saved = await saveSearch(t.ctx, student.viewer, {
    campusId: "ou",
    query: `q=${encodeURIComponent(q)}`,
  });
  await setSavedSearchCadence(t.ctx, student.viewer, { id: saved.id, cadence: "daily" });
  return saved.id;
}

/** A listing by `author`, available, with a price. */
async function listing(text: string, author: TestMember = seller): Promise<string> {
  const post = await createTestPost(t, author.viewer, { text });
  await t.ctx.db.update(posts).set({ priceCents: 4000 }).where(eq(posts.id, post.id));
  return post.id;
}

/** A hit as the matcher writes it for a Daily search (left for the digest). */
async function hit(savedSearchId: string, postId: string, student: TestMember, at = t.clock.now()) {
  await t.ctx.db
    .insert(savedSearchHits)
    .values({ savedSearchId, postId, userId: student.id, campusId: "ou", createdAt: at });
}

async function digestsTo(student: TestMember) {
  return t.ctx.db
    .select()
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.to, student.email.toLowerCase()), eq(mailOutbox.kind, SAVED_SEARCH_DIGEST_MAIL_KIND)),
    );
}

async function unmailedHits(student: TestMember): Promise<number> {
  const [row] = await t.ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedSearchHits)
    .where(and(eq(savedSearchHits.userId, student.id), sql`${savedSearchHits.emailedAt} is null`));
  return Number(row?.n ?? 0);
}

async function runAt(at: Date): Promise<void> {
  t.clock.set(at);
  await runSavedSearchDigest(t.ctx);
}

describe("lastDigestTime", () => {
  it("is today's 08:00 once it has passed, else yesterday's, in the campus's zone across daylight saving", () => {
    expect(lastDigestTime(TUESDAY_0801_CST, "America/Chicago").toISOString()).toBe(
      "2026-03-03T14:00:00.000Z",
    );
    expect(lastDigestTime(TUESDAY_0759_CST, "America/Chicago").toISOString()).toBe(
      "2026-03-02T14:00:00.000Z",
    );
    // 2026-03-08 daylight saving starts: the 9th's 08:00 CDT is 13:00 UTC.
    expect(lastDigestTime(new Date("2026-03-09T13:30:00Z"), "America/Chicago").toISOString()).toBe(
      "2026-03-09T13:00:00.000Z",
    );
    expect(lastDigestTime(new Date("2026-03-09T12:30:00Z"), "America/Chicago").toISOString()).toBe(
      "2026-03-08T13:00:00.000Z",
    );
    expect(lastDigestTime(new Date("2026-03-09T08:00:00Z"), "UTC").toISOString()).toBe(
      "2026-03-09T08:00:00.000Z",
    );
  });
});

describe("the daily digest", () => {
  it("lists a listing several searches found once, naming them, and sends one e-mail a day", async () => {
    const student = await createTestMember(t, { fullName: "Dee Daily" });
    const desk = await dailySearch(student, "desk");
    const lamp = await dailySearch(student, "lamp");
    const both = await listing("IKEA desk lamp\nBarely used");
    const deskOnly = await listing("Oak desk");
    await hit(desk, both, student);
    await hit(lamp, both, student);
    await hit(desk, deskOnly, student);

    // Before 08:00 the next day: nothing (the hits came after Monday's 08:00).
    await runAt(TUESDAY_0759_CST);
    expect(await digestsTo(student)).toHaveLength(0);

    await runAt(TUESDAY_0801_CST);
    const [mail, ...others] = await digestsTo(student);
    expect(others).toHaveLength(0);
    expect(mail?.subject).toBe("2 new listings for your saved searches");
    expect(mail?.text.match(/IKEA desk lamp/g)).toHaveLength(1);
    expect(mail?.text).toContain("matches: desk, lamp");
    // The reader chose this mail: its footer says so (not the sign-in mails' "someone used this address").
    expect(mail?.text).toContain("you chose daily alerts for your saved searches");
    expect(mail?.text).toContain("matches: desk");
    expect(mail?.text).toContain("$40");
    expect(mail?.text).toContain("Available");
    // Addresses from the configured hosts, never a request.
    expect(mail?.html).toContain(`${campusOrigin("ou", null, t.ctx.config)}/post/${both}`);
    // The header's one-click address is the search that found most (desk: two listings).
    const header = mail?.headers?.["List-Unsubscribe"] ?? "";
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const token = new URL(header.slice(1, -1)).searchParams.get("token") ?? "";
    expect(await findSavedSearchByUnsubscribeToken(t.ctx, token)).toMatchObject({ id: desk, name: "desk" });
    expect(await unmailedHits(student)).toBe(0);

    // Run again the same day, even with a hit that committed late for the same window: no second mail.
    await hit(lamp, deskOnly, student, new Date("2026-03-03T13:00:00Z"));
    await runAt(new Date("2026-03-03T20:00:00Z"));
    expect(await digestsTo(student)).toHaveLength(1);
    // It goes the next day.
    await runAt(WEDNESDAY_0801_CST);
    expect(await digestsTo(student)).toHaveLength(2);

    // The outbox sends it with its headers.
    await deliverMailRound(t.ctx);
    const sent = t.mail.sent.find((m) => m.to === student.email.toLowerCase() && m.subject === mail?.subject);
    expect(sent?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("re-checks each listing when the mail is built, and sends no empty digest", async () => {
    const student = await createTestMember(t, { fullName: "Rea Recheck" });
    const blocked = await createTestMember(t, { fullName: "Bo Blocked" });
    const search = await dailySearch(student, "chair");
    const sold = await listing("Chair sold since");
    const reserved = await listing("Chair reserved since");
    const hidden = await listing("Chair hidden since");
    const byBlocked = await listing("Chair by someone blocked", blocked);
    const own = await listing("My own chair", student);
    const fine = await listing("Chair still here");
    for (const postId of [sold, reserved, hidden, byBlocked, own, fine]) await hit(search, postId, student);
    await t.ctx.db.update(posts).set({ listingStatus: "sold" }).where(eq(posts.id, sold));
    await t.ctx.db.update(posts).set({ listingStatus: "reserved" }).where(eq(posts.id, reserved));
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(eq(posts.id, hidden));
    await blockUser(t.ctx, student.viewer, blocked.id);

    await runAt(TUESDAY_0801_CST);
    const [mail, ...others] = await digestsTo(student);
    expect(others).toHaveLength(0);
    expect(mail?.subject).toBe("1 new listing for your saved searches");
    expect(mail?.text).toContain("Chair still here");
    for (const gone of ["sold since", "reserved since", "hidden since", "someone blocked", "My own"])
      expect(mail?.text).not.toContain(gone);

    // Only a listing sold since: no e-mail, and the hit is done with all the same.
    const lonely = await createTestMember(t, { fullName: "Lo Lonely" });
    const lonelySearch = await dailySearch(lonely, "chair");
    await hit(lonelySearch, sold, lonely);
    await runAt(WEDNESDAY_0801_CST);
    expect(await digestsTo(lonely)).toHaveLength(0);
    expect(await unmailedHits(lonely)).toBe(0);
  });

  it("lists at most ten listings and counts the rest", async () => {
    const student = await createTestMember(t, { fullName: "Meg Many" });
    const search = await dailySearch(student, "book");
    for (let i = 0; i < DIGEST_LISTED + 3; i++) await hit(search, await listing(`Book number ${i}`), student);
    await runAt(TUESDAY_0801_CST);
    const [mail] = await digestsTo(student);
    expect(mail?.subject).toBe("13 new listings for your saved searches");
    expect(mail?.text.match(/matches: book/g)).toHaveLength(DIGEST_LISTED);
    expect(mail?.text).toContain("+ 3 more");
  });

  it("leaves out searches turned Instant or Off since, and students who turned notification e-mails off", async () => {
    const student = await createTestMember(t, { fullName: "Cy Changed" });
    const off = await dailySearch(student, "bike");
    await hit(off, await listing("Red bike"), student);
    await setSavedSearchCadence(t.ctx, student.viewer, { id: off, cadence: "off" });
    const quiet = await createTestMember(t, { fullName: "Qi Quiet" });
    const quietSearch = await dailySearch(quiet, "bike");
    await hit(quietSearch, await listing("Blue bike"), quiet);
    await t.ctx.db.update(user).set({ emailNotifications: false }).where(eq(user.id, quiet.id));

    await runAt(TUESDAY_0801_CST);
    expect(await digestsTo(student)).toHaveLength(0);
    expect(await digestsTo(quiet)).toHaveLength(0);
    expect(await unmailedHits(student)).toBe(0);
    expect(await unmailedHits(quiet)).toBe(0);
  });

  it("goes in bounded batches and a rerun after a finished run sends nothing again", async () => {
    const students: TestMember[] = [];
    const post = await listing("Desk fan");
    for (let i = 0; i < 3; i++) {
      const student = await createTestMember(t, { fullName: `Bat Batch${"ABC"[i]}` });
      await hit(await dailySearch(student, "fan"), post, student);
      students.push(student);
    }
    t.clock.set(TUESDAY_0801_CST);
    const { sendDigestBatch } = await import("./saved-search-digest");
    // A batch of one, then the rest: each student once whatever the batches.
    expect((await sendDigestBatch(t.ctx, 1)).students).toBe(1);
    await runSavedSearchDigest(t.ctx);
    await runSavedSearchDigest(t.ctx);
    for (const student of students) expect(await digestsTo(student)).toHaveLength(1);
  });
});

describe("the one-click unsubscribe", () => {
  it("turns off only the search the token names; any other token changes nothing", async () => {
    const student = await createTestMember(t, { fullName: "Uma Unsub" });
    const desk = await dailySearch(student, "desk");
    const lamp = await dailySearch(student, "lamp");
    await hit(desk, await listing("Standing desk"), student);
    await runAt(TUESDAY_0801_CST);
    const [mail] = await digestsTo(student);
    const url = new URL((mail?.headers?.["List-Unsubscribe"] ?? "").slice(1, -1));
    expect(url.pathname).toBe("/notifications/unsubscribe/search");
    const token = url.searchParams.get("token") ?? "";

    const address = (tok: string) =>
      `${server.base}/notifications/unsubscribe/search?token=${encodeURIComponent(tok)}`;
    // Opening the page (a mail scanner following the link) changes nothing; a wrong token is a 404.
    const page = await fetch(address(token));
    expect(page.status).toBe(200);
    const body = (await page.json()) as { loaderData: Record<string, { search: { name: string } | null }> };
    expect(body.loaderData[ROUTE_ID]?.search?.name).toBe("desk");
    expect((await fetch(address(`${token}x`))).status).toBe(404);
    const oneClick = (tok: string) =>
      fetch(address(tok), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    expect((await oneClick(`${token}x`)).status).toBe(404);
    const [before] = await t.ctx.db
      .select({ cadence: savedSearches.cadence })
      .from(savedSearches)
      .where(eq(savedSearches.id, desk));
    expect(before?.cadence).toBe("daily");

    expect(await unsubscribeSavedSearch(t.ctx, `${token}x`)).toBe(false);
    expect(await findSavedSearchByUnsubscribeToken(t.ctx, `${token}x`)).toBeNull();
    expect((await oneClick(token)).status).toBe(200);
    const rows = await t.ctx.db
      .select({ id: savedSearches.id, cadence: savedSearches.cadence })
      .from(savedSearches)
      .where(eq(savedSearches.userId, student.id));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.cadence]))).toEqual({
      [desk]: "off",
      [lamp]: "daily",
    });
  });
});
