import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  lastCodeMailedTo,
  lastMailTo,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notifications, user } from "../db/schema";
import { listNotifications } from "../notifications/notifications";
import { getPost } from "../posts/posts";
import { getProfileById } from "../profiles/profiles";
import { sendBadgeReminders, sendBadgeRenewalCode, setMissingGradYear } from "./badge";
import { alumFrom, badgeLapsesAt, gradYearChoices, studentBadge } from "./badge.shared";
import { verifySchoolEmailCode } from "./school";

const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function row(id: string) {
  const [found] = await t.ctx.db.select().from(user).where(eq(user.id, id));
  if (!found) throw new Error("no user");
  return found;
}

describe("the badge's words (decision 0680)", () => {
  const at = new Date("2026-03-02T15:00:00Z");
  it("reads the class year, or 'Verified student' without one, and nothing without the school check", () => {
    expect(studentBadge({ schoolVerified: true, schoolVerifiedAt: at, gradYear: 2027 }, at)?.label).toBe(
      "Verified student · Class of 2027",
    );
    expect(studentBadge({ schoolVerified: true, schoolVerifiedAt: at, gradYear: null }, at)?.label).toBe(
      "Verified student",
    );
    expect(studentBadge({ schoolVerified: false, schoolVerifiedAt: at, gradYear: 2027 }, at)).toBeNull();
  });
  it("lapses 12 months after the code, by the clock", () => {
    const facts = { schoolVerified: true, schoolVerifiedAt: at, gradYear: 2029 };
    const lapses = badgeLapsesAt(at);
    expect(lapses.toISOString()).toBe("2027-03-02T15:00:00.000Z");
    expect(studentBadge(facts, new Date(lapses.getTime() - 1))?.label).toBe(
      "Verified student · Class of 2029",
    );
    expect(studentBadge(facts, lapses)).toBeNull();
  });
  it("reads 'Alum' after September 30 of the class year, when the badge was valid then", () => {
    const facts = { schoolVerified: true, schoolVerifiedAt: at, gradYear: 2026 };
    expect(studentBadge(facts, new Date("2026-09-30T23:00:00Z"))?.label).toBe(
      "Verified student · Class of 2026",
    );
    expect(studentBadge(facts, alumFrom(2026))?.label).toBe("Alum");
    // An alum's badge stays: there is no school address left to confirm.
    expect(studentBadge(facts, new Date("2030-01-01T00:00:00Z"))?.label).toBe("Alum");
    // Lapsed before graduating: no badge, and no 'Alum' either.
    const lapsed = { ...facts, schoolVerifiedAt: new Date("2025-06-01T00:00:00Z") };
    expect(studentBadge(lapsed, new Date("2026-10-05T00:00:00Z"))).toBeNull();
  });
  it("offers this year to this year + 7", () => {
    expect(gradYearChoices(at)).toEqual([2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033]);
  });
});

describe("school verification asks the year and renews the badge (decisions 0680, 0682)", () => {
  it("refuses a year outside this year..+7 with 400 and changes nothing; a renewal stores the year and restarts the 12 months", async () => {
    t.clock.set(new Date("2026-03-02T15:00:00Z"));
    const student = await createTestMember(t);
    await t.ctx.db
      .update(user)
      .set({ schoolEmail: `renew${process.pid}@ou.edu` })
      .where(eq(user.id, student.id));
    const before = await row(student.id);
    for (const bad of ["2025", "2034", "twenty", ""]) {
      await expect(sendBadgeRenewalCode(t.ctx, student.viewer, { gradYear: bad })).rejects.toMatchObject({
        status: 400,
        message: "Choose your graduation year",
      });
    }
    t.clock.advance(200 * DAY_MS);
    const sent = await sendBadgeRenewalCode(t.ctx, student.viewer, { gradYear: "2028" });
    expect(sent.email).toBe(before.schoolEmail);
    const code = await lastCodeMailedTo(t, sent.email);
    await expect(
      verifySchoolEmailCode(t.ctx, student.viewer, { code, gradYear: "2040" }, { genericInstance: false }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await row(student.id)).gradYear).toBeNull();
    await t.ctx.db.update(user).set({ badgeReminderSentAt: t.clock.now() }).where(eq(user.id, student.id));
    await verifySchoolEmailCode(
      t.ctx,
      student.viewer,
      { code, gradYear: "2028" },
      { genericInstance: false },
    );
    const after = await row(student.id);
    expect(after.gradYear).toBe(2028);
    expect(after.schoolVerifiedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(after.badgeReminderSentAt).toBeNull();
    expect(after.schoolEmail).toBe(before.schoolEmail);
    expect((await getProfileById(t.ctx, student.id))?.badge?.label).toBe("Verified student · Class of 2028");
  });

  it("the year banner fills a missing year once; a set year changes only with a code", async () => {
    t.clock.set(new Date("2026-03-02T15:00:00Z"));
    const student = await createTestMember(t);
    await expect(setMissingGradYear(t.ctx, student.viewer, { gradYear: "1999" })).rejects.toMatchObject({
      status: 400,
    });
    expect((await row(student.id)).gradYear).toBeNull();
    await setMissingGradYear(t.ctx, student.viewer, { gradYear: 2027 });
    expect((await row(student.id)).gradYear).toBe(2027);
    await expect(setMissingGradYear(t.ctx, student.viewer, { gradYear: 2030 })).rejects.toMatchObject({
      code: "grad-year-set",
    });
    expect((await row(student.id)).gradYear).toBe(2027);
  });
});

describe("the profile's badge by the clock, and the reminder job (decision 0681)", () => {
  it("reminds once a period 30 days before the lapse, and the badge is gone after 12 months", async () => {
    t.clock.set(new Date("2026-03-02T15:00:00Z"));
    const student = await createTestMember(t, { gradYear: 2029 });
    const reminders = async () =>
      t.ctx.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, student.id))
        .then((rows) => rows.filter((notice) => notice.type === "badge"));
    t.clock.advance(300 * DAY_MS);
    await sendBadgeReminders(t.ctx);
    expect(await reminders()).toHaveLength(0);
    t.clock.advance(40 * DAY_MS); // 25 days before the lapse
    await sendBadgeReminders(t.ctx);
    await sendBadgeReminders(t.ctx);
    expect(await reminders()).toHaveLength(1);
    // The list words it and leads to the renewal, naming no one.
    const listed = await listNotifications(t.ctx, student.viewer, {});
    expect(listed.items.find((item) => item.type === "badge")).toMatchObject({
      text: "Your verified student badge ends soon. Confirm your school email to keep it.",
      href: "/settings/account/school_email",
      actors: [],
    });
    const mail = await lastMailTo(t, student.email, "badge-reminder");
    expect(mail.text).toContain("/settings/account/school_email");
    expect((await getProfileById(t.ctx, student.id))?.badge?.label).toBe("Verified student · Class of 2029");
    t.clock.advance(26 * DAY_MS);
    expect((await getProfileById(t.ctx, student.id))?.badge).toBeNull();
    await sendBadgeReminders(t.ctx);
    expect(await reminders()).toHaveLength(1);
  });
});

describe("'Alum' after September 30 of the class year, on the profile and a post (decision 0680)", () => {
  it("reads the class year until September 30 ends everywhere, then 'Alum', which does not lapse", async () => {
    t.clock.set(new Date("2026-03-02T15:00:00Z"));
    const student = await createTestMember(t, { gradYear: 2026 });
    const post = await createTestPost(t, student.viewer, { text: "Desk lamp" });
    const seen = async () => {
      const detail = await getPost(t.ctx, student.viewer, {
        postId: post.id,
        campusId: student.viewer.campusId,
      });
      return {
        profile: (await getProfileById(t.ctx, student.id))?.badge?.label,
        post: detail?.author.badge?.label,
      };
    };
    expect(await seen()).toEqual({
      profile: "Verified student · Class of 2026",
      post: "Verified student · Class of 2026",
    });
    // Still September 30 in the last time zone on Earth.
    t.clock.set(new Date("2026-10-01T11:59:00Z"));
    expect(await seen()).toEqual({
      profile: "Verified student · Class of 2026",
      post: "Verified student · Class of 2026",
    });
    t.clock.set(new Date("2026-10-01T12:00:00Z"));
    expect(await seen()).toEqual({ profile: "Alum", post: "Alum" });
    // Past the 12 months: an alum's badge stays.
    t.clock.set(new Date("2027-06-01T00:00:00Z"));
    expect(await seen()).toEqual({ profile: "Alum", post: "Alum" });
  });
});
