import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, lastCodeMailedTo, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { verifyEmailCode } from "../accounts/codes";
import { getViewerById } from "../accounts/viewer";
import { moderationLog, realtimeEvents, staffRoles, user } from "../db/schema";
import { fileReport } from "../moderation/reports";
import { syncConfiguredAdminOf, syncConfiguredAdmins } from "./configured-admins";
import { appointModerator, getModeratorsPage, removeModerator } from "./moderators";
import { getStaffMember, grantRole, requireSiteAdmin, requireStaff } from "./roles";
import { STAFF_EVENT, waitingItemCount } from "./waiting";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function student(options: { campusId?: string; verified?: boolean; email?: string } = {}) {
  const created = await createTestUser(t, { verified: options.verified ?? true, ...options });
  const viewer = await getViewerById(t.ctx, created.id);
  if (!viewer) throw new Error("no viewer");
  return viewer;
}

async function siteAdmin() {
  const admin = await student();
  await t.ctx.db.transaction((tx) =>
    grantRole(tx, t.clock.now(), admin.id, { role: "site_admin", campusId: null }, { source: "command" }),
  );
  return admin;
}

async function moderatorOf(campusId: string) {
  const moderator = await student({ campusId });
  await t.ctx.db.transaction((tx) =>
    grantRole(tx, t.clock.now(), moderator.id, { role: "campus_moderator", campusId }, { source: "command" }),
  );
  return moderator;
}

async function logOf(userId: string) {
  return t.ctx.db
    .select()
    .from(moderationLog)
    .where(eq(moderationLog.targetUserId, userId))
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id));
}

function withAdminEmails(emails: string[]) {
  return { ...t.ctx, config: { ...t.ctx.config, adminEmails: emails } };
}

describe("who is staff (decision 0520)", () => {
  it("a campus moderator serves their campus only; a UT moderator is not staff for OU", async () => {
    const moderator = await moderatorOf("ut");
    await expect(requireStaff(t.ctx, moderator, "ut")).resolves.toMatchObject({
      siteAdmin: false,
      moderatedCampusIds: ["ut"],
    });
    await expect(requireStaff(t.ctx, moderator, "ou")).rejects.toMatchObject({
      code: "not-found",
      status: 404,
    });
    await expect(requireSiteAdmin(t.ctx, moderator)).rejects.toMatchObject({ status: 404 });
  });

  it("a site admin serves every campus", async () => {
    const admin = await siteAdmin();
    for (const campusId of ["ou", "ut", "tamu"]) {
      await expect(requireStaff(t.ctx, admin, campusId)).resolves.toMatchObject({ siteAdmin: true });
    }
    await expect(requireSiteAdmin(t.ctx, admin)).resolves.toMatchObject({ id: admin.id });
  });

  it("anyone else, signed out included, gets the not-found error, the same as a missing page", async () => {
    const someone = await student();
    for (const campusId of ["ou", null]) {
      await expect(requireStaff(t.ctx, someone, campusId)).rejects.toMatchObject({
        code: "not-found",
        status: 404,
        message: "This page doesn't exist.",
      });
      await expect(requireStaff(t.ctx, null, campusId)).rejects.toMatchObject({ status: 404 });
    }
    await expect(getModeratorsPage(t.ctx, someone)).rejects.toMatchObject({ status: 404 });
    await expect(
      appointModerator(t.ctx, someone, { campusId: "ou", email: someone.email }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(await getStaffMember(t.ctx.db, someone.id)).toBeNull();
  });

  it("refuses a role row whose campus does not match the role, and a second identical role", async () => {
    const someone = await student();
    await expect(
      t.ctx.db.insert(staffRoles).values({
        userId: someone.id,
        role: "site_admin",
        campusId: "ou",
        source: "command",
        grantedAt: t.clock.now(),
      }),
    ).rejects.toThrow();
    const at = t.clock.now();
    const grant = { role: "site_admin", campusId: null } as const;
    expect(await grantRole(t.ctx.db, at, someone.id, grant, { source: "command" })).toBe(true);
    expect(await grantRole(t.ctx.db, at, someone.id, grant, { source: "command" })).toBe(false);
    const rows = await t.ctx.db.select().from(staffRoles).where(eq(staffRoles.userId, someone.id));
    expect(rows).toHaveLength(1);
  });
});

describe("appointing moderators at /admin/moderators (decision 0520)", () => {
  it("a site admin appoints an OU moderator by e-mail, lists and removes them; each change is logged", async () => {
    const admin = await siteAdmin();
    const future = await student({ campusId: "ou" });
    t.clock.advance(1000);
    const appointed = await appointModerator(t.ctx, admin, {
      campusId: "ou",
      email: ` ${future.email.toUpperCase()} `,
    });
    expect(appointed).toEqual({ name: `${future.firstName} ${future.lastName}`, campusName: "OU" });
    await expect(requireStaff(t.ctx, future, "ou")).resolves.toMatchObject({ moderatedCampusIds: ["ou"] });

    const page = await getModeratorsPage(t.ctx, admin);
    const ou = page.moderated.find((campus) => campus.campusId === "ou");
    const row = ou?.moderators.find((moderator) => moderator.id === future.id);
    expect(row).toMatchObject({ email: future.email, source: "staff" });
    expect(page.campuses.some((campus) => campus.id === "www")).toBe(false);
    expect(page.siteAdmins.some((listed) => listed.id === admin.id)).toBe(true);

    await expect(
      appointModerator(t.ctx, admin, { campusId: "ou", email: future.email }),
    ).rejects.toMatchObject({
      code: "already-moderator",
      field: "email",
    });

    t.clock.advance(1000);
    await removeModerator(t.ctx, admin, { roleId: row?.roleId ?? "" });
    await expect(requireStaff(t.ctx, future, "ou")).rejects.toMatchObject({ status: 404 });
    await expect(removeModerator(t.ctx, admin, { roleId: row?.roleId ?? "" })).rejects.toMatchObject({
      code: "not-moderator",
      status: 404,
    });

    const log = await logOf(future.id);
    expect(
      log.map((entry) => [entry.action, entry.campusId, entry.actorId, entry.source, entry.actorRole]),
    ).toEqual([
      ["revoke_role", "ou", admin.id, "staff", "site_admin"],
      ["grant_role", "ou", admin.id, "staff", "site_admin"],
    ]);
    expect(log[1]).toMatchObject({
      targetKind: "user",
      targetId: future.id,
      details: { role: "campus_moderator" },
      createdAt: new Date(t.clock.now().getTime() - 1000),
    });
  });

  it("an unknown e-mail, an unverified one, an unknown campus and the generic site are refused; nothing changes", async () => {
    const admin = await siteAdmin();
    const unverified = await student({ verified: false });
    const verified = await student();
    const cases = [
      [{ campusId: "ou", email: uniqueEmail("nobody") }, "unknown-email", "email"],
      [{ campusId: "ou", email: unverified.email }, "unverified-email", "email"],
      [{ campusId: "nowhere", email: verified.email }, "unknown-campus", "campusId"],
      [{ campusId: "www", email: verified.email }, "unknown-campus", "campusId"],
      [{ campusId: "ou", email: "not an address" }, "invalid-input", "email"],
      [{ campusId: "", email: verified.email }, "invalid-input", "campusId"],
    ] as const;
    for (const [input, code, field] of cases) {
      await expect(appointModerator(t.ctx, admin, input)).rejects.toMatchObject({ code, field, status: 400 });
    }
    for (const person of [unverified, verified]) {
      expect(await getStaffMember(t.ctx.db, person.id)).toBeNull();
      expect(await logOf(person.id)).toEqual([]);
    }
  });

  it("a campus moderator cannot appoint anyone (404)", async () => {
    const moderator = await moderatorOf("ou");
    const other = await student();
    await expect(
      appointModerator(t.ctx, moderator, { campusId: "ou", email: other.email }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("site admins from ADMIN_EMAILS (decision 0522)", () => {
  it("grants at start to verified listed accounts, and revokes at the next start only what the list granted", async () => {
    const listed = await student();
    const unverifiedListed = await student({ verified: false });
    const byCommand = await siteAdmin();
    const ctx = withAdminEmails([listed.email, unverifiedListed.email, byCommand.email]);
    const first = await syncConfiguredAdmins(ctx);
    expect(first.granted).toBeGreaterThanOrEqual(1);
    expect(await getStaffMember(t.ctx.db, listed.id)).toMatchObject({ siteAdmin: true });
    expect(await getStaffMember(t.ctx.db, unverifiedListed.id)).toBeNull();
    const [configured] = await t.ctx.db.select().from(staffRoles).where(eq(staffRoles.userId, listed.id));
    expect(configured).toMatchObject({ source: "config", campusId: null, grantedBy: null });
    // The command's grant keeps its own source.
    const [commanded] = await t.ctx.db.select().from(staffRoles).where(eq(staffRoles.userId, byCommand.id));
    expect(commanded?.source).toBe("command");

    // A second start with the same list changes nothing.
    const again = await syncConfiguredAdmins(ctx);
    expect(again).toMatchObject({ granted: 0 });
    expect((await logOf(listed.id)).length).toBe(1);

    // Both addresses taken off the list: only the configured grant goes.
    t.clock.advance(1000);
    await syncConfiguredAdmins(withAdminEmails([unverifiedListed.email]));
    expect(await getStaffMember(t.ctx.db, listed.id)).toBeNull();
    expect(await getStaffMember(t.ctx.db, byCommand.id)).toMatchObject({ siteAdmin: true });
    expect(
      (await logOf(listed.id)).map((entry) => [entry.action, entry.source, entry.actorId, entry.campusId]),
    ).toEqual([
      ["revoke_role", "config", null, null],
      ["grant_role", "config", null, null],
    ]);
  });

  it("grants when a listed account verifies its address with the code", async () => {
    const email = uniqueEmail("admin");
    const ctx = withAdminEmails([email]);
    const created = await createTestUser(t, { email });
    expect(await getStaffMember(t.ctx.db, created.id)).toBeNull();
    await verifyEmailCode(ctx, created.id, await lastCodeMailedTo(t, email));
    expect(await getStaffMember(t.ctx.db, created.id)).toMatchObject({ siteAdmin: true });
    expect((await logOf(created.id))[0]).toMatchObject({ action: "grant_role", source: "config" });
  });

  it("follows one account's verified address, in the caller's transaction", async () => {
    const someone = await student();
    const ctx = withAdminEmails([someone.email]);
    await t.ctx.db.transaction((tx) => syncConfiguredAdminOf(ctx, tx, someone.id));
    expect(await getStaffMember(t.ctx.db, someone.id)).toMatchObject({ siteAdmin: true });
    // The account moves to an address not on the list: the configured grant goes.
    await t.ctx.db
      .update(user)
      .set({ email: uniqueEmail("moved") })
      .where(eq(user.id, someone.id));
    await t.ctx.db.transaction((tx) => syncConfiguredAdminOf(ctx, tx, someone.id));
    expect(await getStaffMember(t.ctx.db, someone.id)).toBeNull();
  });
});

describe("the waiting items beside a staff member's avatar (decision 0523)", () => {
  it("counts the reports of the staff member's campuses, every campus for a site admin", async () => {
    const ouModerator = await moderatorOf("ou");
    const utModerator = await moderatorOf("ut");
    const admin = await siteAdmin();
    const count = async (viewer: { id: string }) => {
      const staff = await getStaffMember(t.ctx.db, viewer.id);
      if (!staff) throw new Error("not staff");
      return waitingItemCount(t.ctx, staff);
    };
    const before = { ou: await count(ouModerator), ut: await count(utModerator), all: await count(admin) };
    const reporter = await student({ campusId: "ou" });
    await t.ctx.db
      .update(user)
      .set({ profileSetUp: true, schoolVerified: true })
      .where(eq(user.id, reporter.id));
    const reported = await student({ campusId: "ou" });
    await fileReport(t.ctx, reporter, { targetKind: "user", targetId: reported.id, reason: "spam" });
    expect(await count(ouModerator)).toBe(before.ou + 1);
    expect(await count(utModerator)).toBe(before.ut);
    expect(await count(admin)).toBe(before.all + 1);

    // The OU moderator and the admin are told live; the UT moderator is not.
    const eventsOf = (userId: string) =>
      t.ctx.db
        .select({ type: realtimeEvents.type })
        .from(realtimeEvents)
        .where(eq(realtimeEvents.userId, userId));
    expect(await eventsOf(ouModerator.id)).toContainEqual({ type: STAFF_EVENT });
    expect(await eventsOf(admin.id)).toContainEqual({ type: STAFF_EVENT });
    expect(await eventsOf(utModerator.id)).not.toContainEqual({ type: STAFF_EVENT });
  });
});
