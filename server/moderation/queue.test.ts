import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin, openTestItem } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { getStaffMember } from "../staff/roles";
import { waitingItemCount } from "../staff/waiting";
import { getModerationItem } from "./item-view";
import { listQueue, readQueueFilters } from "./queue";

// Decision 0541: the queue's scope, routing, overdue mark, filters and pages; the item page's scope.
let t: TestContext;
let ouModerator: TestMember;
let utModerator: TestMember;
let admin: TestMember;
let reporters: TestMember[];

beforeAll(async () => {
  t = await createTestContext();
  ouModerator = await createModerator(t, "ou", { fullName: "Marcus Reed" });
  utModerator = await createModerator(t, "ut");
  admin = await createSiteAdmin(t);
  reporters = [await createTestMember(t), await createTestMember(t), await createTestMember(t)];
});
afterAll(() => t.close());

const OPEN = readQueueFilters({});

async function postItem(
  options: { campusId?: string; toAdmins?: boolean; text?: string; reason?: "scam" | "spam" } = {},
) {
  const campusId = options.campusId ?? "ou";
  const author = await createTestMember(t, { campusId });
  const post = await createTestPost(t, author.viewer, { text: options.text ?? "Selling a lamp" });
  const item = await openTestItem(t, {
    campusId,
    targetKind: "post",
    targetId: post.id,
    targetUserId: author.id,
    toAdmins: options.toAdmins,
    reports: reporters.slice(0, 2).map((reporter) => ({ reporter, reason: options.reason ?? "spam" })),
  });
  return { author, post, item };
}

const idsOf = async (viewer: TestMember, filters = OPEN) =>
  (await listQueue(t.ctx, viewer.viewer, filters)).items.map((row) => row.id);

describe("the queue's scope and routing (decision 0541)", () => {
  it("a campus moderator sees their campus's items but not another's, nor those routed to site admins", async () => {
    const ou = await postItem({ text: "OU lamp, barely used" });
    const ut = await postItem({ campusId: "ut" });
    const scam = await postItem({ toAdmins: true, reason: "scam" });
    const ouQueue = await idsOf(ouModerator);
    expect(ouQueue).toContain(ou.item.id);
    expect(ouQueue).not.toContain(ut.item.id);
    expect(ouQueue).not.toContain(scam.item.id);
    expect(await idsOf(utModerator)).toContain(ut.item.id);
    expect(await idsOf(utModerator)).not.toContain(ou.item.id);
    const all = await idsOf(admin);
    expect(all).toEqual(expect.arrayContaining([ou.item.id, ut.item.id, scam.item.id]));
    // A site admin's campus filter.
    const onlyUt = await idsOf(admin, readQueueFilters({ campus: "ut" }));
    expect(onlyUt).toContain(ut.item.id);
    expect(onlyUt).not.toContain(ou.item.id);

    const row = (await listQueue(t.ctx, ouModerator.viewer, OPEN)).items.find(
      (item) => item.id === ou.item.id,
    );
    expect(row).toMatchObject({
      kindLabel: "Listing",
      excerpt: "OU lamp, barely used",
      reasons: [{ reason: "spam", label: "Spam", count: 2 }],
      reporters: 2,
      weight: 2,
      overdue: false,
      hidden: false,
    });
  });

  it("the item page answers not-found to a moderator of another campus, to anyone else, and for routed items", async () => {
    const ou = await postItem();
    const scam = await postItem({ toAdmins: true, reason: "scam" });
    const student = await createTestMember(t);
    for (const [viewer, id] of [
      [utModerator, ou.item.id],
      [student, ou.item.id],
      [ouModerator, scam.item.id],
      [ouModerator, "not-a-uuid"],
      [ouModerator, "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      await expect(getModerationItem(t.ctx, viewer.viewer, id)).rejects.toMatchObject({ status: 404 });
    }
    await expect(getModerationItem(t.ctx, null, ou.item.id)).rejects.toMatchObject({ status: 404 });
    await expect(listQueue(t.ctx, student.viewer, OPEN)).rejects.toMatchObject({ status: 404 });
    const view = await getModerationItem(t.ctx, ouModerator.viewer, ou.item.id);
    expect(view.reports.map((report) => report.reporter.id).sort()).toEqual(
      reporters
        .slice(0, 2)
        .map((reporter) => reporter.id)
        .sort(),
    );
    expect(view.author).toMatchObject({
      id: ou.author.id,
      verified: true,
      schoolVerified: true,
      strikes: [],
    });
    expect(view.actions.decide).toEqual(["dismiss", "remove", "warn", "suspend", "ban"]);
    await expect(getModerationItem(t.ctx, admin.viewer, scam.item.id)).resolves.toMatchObject({
      item: { toAdmins: true },
    });
  });

  it("marks an open item Overdue after 72 hours, by the clock", async () => {
    const { item } = await postItem();
    const rowOf = async () =>
      (await listQueue(t.ctx, ouModerator.viewer, OPEN)).items.find((row) => row.id === item.id);
    expect((await rowOf())?.overdue).toBe(false);
    expect(await idsOf(ouModerator, readQueueFilters({ overdue: "1" }))).not.toContain(item.id);
    t.clock.advance(72 * 60 * 60 * 1000 + 60_000);
    expect((await rowOf())?.overdue).toBe(true);
    expect(await idsOf(ouModerator, readQueueFilters({ overdue: "1" }))).toContain(item.id);
    expect(
      (await listQueue(t.ctx, admin.viewer, OPEN)).items.find((row) => row.id === item.id)?.overdue,
    ).toBe(true);
  });

  it("filters by reason, lists oldest first and pages by keyset", async () => {
    const scam = await postItem({ campusId: "tamu", reason: "scam" });
    expect(await idsOf(admin, readQueueFilters({ reason: "scam", campus: "tamu" }))).toEqual([scam.item.id]);
    expect(await idsOf(admin, readQueueFilters({ reason: "harassment", campus: "tamu" }))).toEqual([]);
    // 30 items on one campus, a second apart: pages of 25 in order, then the rest.
    const made: string[] = [];
    const campusId = "duke";
    const author = await createTestMember(t, { campusId });
    for (let index = 0; index < 30; index++) {
      t.clock.advance(1000);
      const item = await openTestItem(t, {
        campusId,
        targetKind: "user",
        targetId: `${author.id}-${index}`,
        targetUserId: author.id,
        reports: [{ reporter: reporters[0] as TestMember }],
      });
      made.push(item.id);
    }
    const first = await listQueue(t.ctx, admin.viewer, readQueueFilters({ campus: campusId }));
    expect(first.items.map((row) => row.id)).toEqual(made.slice(0, 25));
    expect(first.items[0]?.kindLabel).toBe("Member");
    const second = await listQueue(
      t.ctx,
      admin.viewer,
      readQueueFilters({ campus: campusId }),
      first.nextCursor,
    );
    expect(second.items.map((row) => row.id)).toEqual(made.slice(25));
    expect(second.nextCursor).toBeNull();
    await expect(listQueue(t.ctx, admin.viewer, OPEN, "bm90LWEtY3Vyc29y")).rejects.toMatchObject({
      status: 400,
    });
  });

  it("counts the waiting items in each staff member's scope (the badge beside the avatar)", async () => {
    const count = async (member: TestMember) => {
      const staff = await getStaffMember(t.ctx.db, member.id);
      if (!staff) throw new Error("not staff");
      return waitingItemCount(t.ctx, staff);
    };
    const before = { ou: await count(ouModerator), ut: await count(utModerator), all: await count(admin) };
    await postItem();
    await postItem({ toAdmins: true, reason: "scam" });
    expect(await count(ouModerator)).toBe(before.ou + 1);
    expect(await count(utModerator)).toBe(before.ut);
    expect(await count(admin)).toBe(before.all + 2);
  });
});
