import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestUser } from "../../tests/support/factories";
import { insertLogRow } from "../../tests/support/moderation-rows";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { loadConfig } from "../config";
import { grantRole } from "../staff/roles";
import { listModerationLog, MODLOG_PAGE_SIZE } from "./public-log";

// Decision 0549: /modlog, public entries without names, notes or content; staff see names and notes.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function staffMember(
  role: "site_admin" | "campus_moderator",
  campusId: string | null,
  fullName: string,
) {
  const member = await createTestMember(t, { campusId: campusId ?? "ou", fullName });
  await t.ctx.db.transaction((tx) =>
    grantRole(
      tx,
      t.clock.now(),
      member.id,
      role === "site_admin" ? { role, campusId: null } : { role, campusId: campusId ?? "ou" },
      { source: "command" },
    ),
  );
  return member;
}

describe("listModerationLog (decision 0549)", () => {
  it("shows everyone the actions in words, without names, notes, reporters or content; staff see names and notes", async () => {
    // A campus of its own, so the other tests' rows stay out.
    const campusId = "tamu";
    const moderator = await staffMember("campus_moderator", campusId, "Marcus Whitfield");
    const admin = await staffMember("site_admin", null, "Priya Raman");
    const author = await createTestMember(t, { campusId, fullName: "Jordan Blake" });
    const step = () => t.clock.advance(1000);
    const base = { campusId, targetUserId: author.id };
    step();
    await insertLogRow(t, {
      ...base,
      action: "grant_role",
      targetKind: "user",
      targetId: moderator.id,
      actorId: admin.id,
      actorRole: "site_admin",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "hide",
      source: "system",
      actorId: null,
      actorRole: null,
      reasonCode: "scam",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "remove",
      actorId: moderator.id,
      reasonCode: "scam",
      publicReason: "Asked for payment by gift card.",
      privateNote: "Third time this month; reporter Alex confirmed by screenshot.",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "suspend",
      targetKind: "message",
      actorId: admin.id,
      actorRole: "site_admin",
      reasonCode: "harassment",
      publicReason: "Threats in a chat.",
      details: { days: 3, suspendedUntil: "2026-03-05T15:00:00.000Z" },
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "note",
      actorId: moderator.id,
      publicReason: "Please add photos.",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "dismiss",
      targetKind: "comment",
      actorId: moderator.id,
      reasonCode: "spam",
      publicReason: "Not spam.",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "warn",
      targetKind: "user",
      actorId: moderator.id,
      reasonCode: "other",
      publicReason: "Be civil.",
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "suspend",
      targetKind: "user",
      actorId: moderator.id,
      reasonCode: "spam",
      publicReason: "Spam flood.",
      details: { days: null },
    });
    step();
    await insertLogRow(t, {
      ...base,
      action: "approve_appeal",
      actorId: admin.id,
      actorRole: "site_admin",
      reasonCode: "scam",
      publicReason: "The receipt checks out.",
    });
    // Another campus's entry never shows here.
    await insertLogRow(t, { campusId: "ou", action: "ban", actorId: moderator.id, publicReason: "OU only." });

    const visitor = await listModerationLog(t.ctx, null, campusId);
    const member = await createTestUser(t, { campusId });
    expect(await listModerationLog(t.ctx, { id: member.id }, campusId)).toEqual(visitor);
    expect(visitor.staffView).toBe(false);
    expect(visitor.items.map(({ id, createdAt, ...entry }) => entry)).toEqual([
      {
        action: "Approved an appeal",
        reasonLabel: "Scam or fraud",
        targetWords: "a listing",
        publicReason: "The receipt checks out.",
        actor: "Site admins",
        privateNote: null,
      },
      {
        action: "Suspended until lifted",
        reasonLabel: "Spam",
        targetWords: "a member",
        publicReason: "Spam flood.",
        actor: "Campus moderators",
        privateNote: null,
      },
      {
        action: "Warned",
        reasonLabel: "Something else",
        targetWords: "a member",
        publicReason: "Be civil.",
        actor: "Campus moderators",
        privateNote: null,
      },
      {
        action: "Dismissed reports",
        reasonLabel: "Spam",
        targetWords: "a comment",
        publicReason: "Not spam.",
        actor: "Campus moderators",
        privateNote: null,
      },
      {
        action: "Suspended for 3 days",
        reasonLabel: "Harassment or hate",
        targetWords: "a message",
        publicReason: "Threats in a chat.",
        actor: "Site admins",
        privateNote: null,
      },
      {
        action: "Removed",
        reasonLabel: "Scam or fraud",
        targetWords: "a listing",
        publicReason: "Asked for payment by gift card.",
        actor: "Campus moderators",
        privateNote: null,
      },
      {
        action: "Hidden pending review",
        reasonLabel: "Scam or fraud",
        targetWords: "a listing",
        publicReason: null,
        actor: "Automatic",
        privateNote: null,
      },
    ]);
    const publicText = JSON.stringify(visitor);
    for (const secret of [
      "Marcus",
      "Whitfield",
      "Priya",
      "Jordan",
      "Alex",
      "Please add photos",
      author.id,
      moderator.id,
    ]) {
      expect(publicText).not.toContain(secret);
    }

    // Staff of the campus: the same log with names, notes, and the private rows.
    for (const staff of [moderator, admin]) {
      const log = await listModerationLog(t.ctx, staff.viewer, campusId);
      expect(log.staffView).toBe(true);
      const byAction = new Map(log.items.map((entry) => [entry.action, entry]));
      expect(byAction.get("Removed")).toMatchObject({
        actor: "Marcus W.",
        privateNote: "Third time this month; reporter Alex confirmed by screenshot.",
      });
      expect(byAction.get("Suspended for 3 days")?.actor).toBe("Priya R.");
      expect(byAction.get("Hidden pending review")?.actor).toBe("Automatic");
      expect(byAction.get("Sent a note")).toMatchObject({ publicReason: "Please add photos." });
      // The appointment through the site names its admin; the one by the command is automatic.
      expect(
        log.items.filter((entry) => entry.action === "Appointed a moderator").map((entry) => entry.actor),
      ).toEqual(["Priya R.", "Automatic"]);
      expect(log.items).toHaveLength(10);
    }
    // A moderator of another campus is the public.
    const utModerator = await staffMember("campus_moderator", "ut", "Casey Long");
    const theirs = await listModerationLog(t.ctx, utModerator.viewer, campusId);
    expect(theirs.staffView).toBe(false);
    expect(theirs.items).toEqual(visitor.items);
  });

  it("pages newest first by keyset, and refuses a tampered cursor", async () => {
    const campusId = "smu";
    for (let n = 0; n < MODLOG_PAGE_SIZE + 3; n++) {
      await insertLogRow(t, { campusId, action: "remove", reasonCode: "spam", publicReason: `Entry ${n}` });
      // Two entries at one instant: the id breaks the tie.
      if (n % 2 === 0) t.clock.advance(1000);
    }
    const first = await listModerationLog(t.ctx, null, campusId);
    expect(first.items).toHaveLength(MODLOG_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const second = await listModerationLog(t.ctx, null, campusId, { cursor: first.nextCursor });
    expect(second.items).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    const reasons = [...first.items, ...second.items].map((entry) => entry.publicReason);
    expect(new Set(reasons).size).toBe(MODLOG_PAGE_SIZE + 3);
    expect(reasons[reasons.length - 1]).toBe("Entry 0");
    await expect(listModerationLog(t.ctx, null, campusId, { cursor: "nope" })).rejects.toMatchObject({
      code: "invalid-input",
    });
  });

  it("is empty for a campus nobody has moderated yet", async () => {
    expect(await listModerationLog(t.ctx, null, "unt")).toEqual({
      staffView: false,
      items: [],
      nextCursor: null,
    });
  });

  it("gives a visitor of a private campus its gate, and its members the log", async () => {
    const closed = await createTestContext(
      loadConfig({
        APP_SECRET: "test-secret-test-secret-test-secret",
        DATA_DIR: ".tmp/test-data",
        PUBLIC_CAMPUSES: "ut",
      }),
    );
    try {
      await expect(listModerationLog(closed.ctx, null, "ou")).rejects.toMatchObject({
        code: "private-campus",
      });
      const member = await createTestUser(closed, { campusId: "ou" });
      await expect(listModerationLog(closed.ctx, { id: member.id }, "ou")).resolves.toMatchObject({
        items: [],
      });
      await expect(listModerationLog(closed.ctx, null, "ut")).resolves.toMatchObject({ items: [] });
    } finally {
      await closed.close();
    }
  });
});
