import { eq } from "drizzle-orm";
import type { Viewer } from "../../server/accounts/viewer";
import {
  appeals,
  moderationItems,
  posts,
  type ReportedMessageSnapshot,
  type ReportReason,
  reports,
  strikes,
} from "../../server/db/schema";
import { grantRole } from "../../server/staff/roles";
import { createTestMember, type TestMember } from "./factories";
import type { TestContext } from "./test-context";

/**
 * Moderation items as the reports and appeals of decisions 0540 and 0545 leave them, written
 * straight to the tables, so the staff's side (decisions 0541, 0543, 0544) is tested on its own.
 */

export async function createSiteAdmin(
  t: TestContext,
  options: { fullName?: string } = {},
): Promise<TestMember> {
  const admin = await createTestMember(t, options);
  await t.ctx.db.transaction((tx) =>
    grantRole(tx, t.clock.now(), admin.id, { role: "site_admin", campusId: null }, { source: "command" }),
  );
  return admin;
}

export async function createModerator(
  t: TestContext,
  campusId: string,
  options: { fullName?: string } = {},
): Promise<TestMember> {
  const moderator = await createTestMember(t, { campusId, ...options });
  await t.ctx.db.transaction((tx) =>
    grantRole(tx, t.clock.now(), moderator.id, { role: "campus_moderator", campusId }, { source: "command" }),
  );
  return moderator;
}

export interface ReportSpec {
  reporter: Pick<Viewer, "id">;
  reason?: ReportReason;
  comment?: string | null;
  weight?: number;
  snapshot?: ReportedMessageSnapshot | null;
}

/** An open item of `targetKind` with its reports (as a report of REPORTS would leave it). */
export async function openTestItem(
  t: TestContext,
  input: {
    campusId: string;
    targetKind: "post" | "comment" | "message" | "user";
    targetId: string;
    targetUserId: string;
    reports: ReportSpec[];
    toAdmins?: boolean;
    hidden?: boolean;
    openedAt?: Date;
  },
) {
  const openedAt = input.openedAt ?? t.clock.now();
  const weight = input.reports.reduce((sum, report) => sum + (report.weight ?? 1), 0);
  const [item] = await t.ctx.db
    .insert(moderationItems)
    .values({
      campusId: input.campusId,
      targetKind: input.targetKind,
      targetId: input.targetId,
      targetUserId: input.targetUserId,
      toAdmins: input.toAdmins ?? false,
      hidden: input.hidden ?? false,
      weight,
      reporters: input.reports.length,
      openedAt,
    })
    .returning();
  if (!item) throw new Error("no item");
  for (const report of input.reports) {
    await t.ctx.db.insert(reports).values({
      campusId: input.campusId,
      reporterId: report.reporter.id,
      reportedUserId: input.targetUserId,
      targetKind: input.targetKind,
      targetId: input.targetId,
      itemId: item.id,
      reason: report.reason ?? "spam",
      comment: report.comment ?? null,
      weight: report.weight ?? 1,
      snapshot: report.snapshot ?? null,
      createdAt: openedAt,
      updatedAt: openedAt,
    });
  }
  if (input.hidden && (input.targetKind === "post" || input.targetKind === "comment")) {
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(eq(posts.id, input.targetId));
  }
  return item;
}

/** An appeal of a strike and its open item (as STUDENT's fileAppeal leaves them). */
export async function openTestAppeal(
  t: TestContext,
  strikeId: string,
  text = "I sold it in person; it was not a scam at all.",
) {
  const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.id, strikeId)).limit(1);
  if (!strike) throw new Error("no strike");
  const [appeal] = await t.ctx.db
    .insert(appeals)
    .values({ campusId: strike.campusId, strikeId, userId: strike.userId, text, createdAt: t.clock.now() })
    .returning();
  if (!appeal) throw new Error("no appeal");
  const [item] = await t.ctx.db
    .insert(moderationItems)
    .values({
      campusId: strike.campusId,
      targetKind: "appeal",
      targetId: appeal.id,
      targetUserId: strike.userId,
      openedAt: t.clock.now(),
    })
    .returning();
  if (!item) throw new Error("no item");
  return { appeal, item };
}

/** The decision form's fields for an item as the page shows it. */
export function decisionInput(
  item: { id: string; version: number },
  decision: "dismiss" | "remove" | "warn" | "suspend" | "ban",
  extra: { days?: "1" | "3" | "7" | "30" | "lifted"; publicReason?: string; privateNote?: string } = {},
) {
  return {
    itemId: item.id,
    version: item.version,
    decision,
    reasonCode: "spam" as const,
    publicReason: extra.publicReason ?? "Repeated spam listings.",
    privateNote: extra.privateNote,
    days: extra.days,
  };
}
