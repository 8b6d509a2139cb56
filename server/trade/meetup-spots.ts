import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { AdminError, adminNotFound } from "../admin/errors.shared";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { campuses, type MeetupSpotKind, meetupSpots } from "../db/schema";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin, type StaffMember } from "../staff/roles";
import { parseInput } from "../validation";
import {
  type EditMeetupSpotInput,
  editMeetupSpotSchema,
  MEETUP_MESSAGES,
  type MeetupSpotInput,
  type MeetupSpotRefInput,
  type MoveMeetupSpotInput,
  meetupSpotRefSchema,
  meetupSpotSchema,
  moveMeetupSpotSchema,
  SPOT_LIMITS,
} from "./meetup-rules.shared";

/**
 * A campus's meetup spots (decision 0610, docs/product/meetups.md): the list students pick from,
 * and the console's writes, site admins only, each logged in the moderation log on the campus
 * (so the campus page's Changes list shows it). Removing a spot archives it: meetups proposed
 * there keep their words.
 */

export type SpotContext = Pick<AppContext, "db" | "clock">;

export interface MeetupSpotView {
  id: string;
  name: string;
  kind: MeetupSpotKind;
  address: string;
  hours: string;
  rules: string;
}

const spotColumns = {
  id: meetupSpots.id,
  name: meetupSpots.name,
  kind: meetupSpots.kind,
  address: meetupSpots.address,
  hours: meetupSpots.hours,
  rules: meetupSpots.rules,
};

/** The campus's spots in the admins' order (the index meetup_spots_campus_idx serves it). */
export async function listCampusSpots(db: Queryable, campusId: string): Promise<MeetupSpotView[]> {
  return db
    .select(spotColumns)
    .from(meetupSpots)
    .where(and(eq(meetupSpots.campusId, campusId), isNull(meetupSpots.archivedAt)))
    .orderBy(asc(meetupSpots.position), asc(meetupSpots.createdAt))
    .limit(SPOT_LIMITS.perCampus);
}

/** Decision 0610: the console's 'Meetup spots' section of a campus. */
export async function getCampusSpotsForAdmin(
  ctx: SpotContext,
  viewer: Pick<Viewer, "id"> | null,
  campusId: unknown,
): Promise<{ spots: MeetupSpotView[]; limit: number }> {
  await requireSiteAdmin(ctx, viewer);
  if (typeof campusId !== "string" || campusId.length > 40) throw adminNotFound();
  return { spots: await listCampusSpots(ctx.db, campusId), limit: SPOT_LIMITS.perCampus };
}

function invalidSpot(issue: { message: string; field: string | undefined }): AdminError {
  return new AdminError("invalid-input", issue.message, issue.field);
}

/** The campus's row locked, so two admins' writes to its list go one after the other. */
async function lockCampus(tx: Tx, campusId: string): Promise<void> {
  const [campus] = await tx
    .select({ id: campuses.id })
    .from(campuses)
    .where(and(eq(campuses.id, campusId), eq(campuses.generic, false)))
    .limit(1)
    .for("update");
  if (!campus) throw adminNotFound();
}

async function activeSpot(tx: Tx, campusId: string, spotId: string) {
  const [spot] = await tx
    .select({ ...spotColumns, position: meetupSpots.position })
    .from(meetupSpots)
    .where(
      and(eq(meetupSpots.id, spotId), eq(meetupSpots.campusId, campusId), isNull(meetupSpots.archivedAt)),
    )
    .limit(1);
  if (!spot) throw adminNotFound();
  return spot;
}

async function logSpot(
  tx: Tx,
  ctx: SpotContext,
  admin: StaffMember,
  campusId: string,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await appendModerationLog(tx, {
    campusId,
    actorId: admin.id,
    source: "staff",
    actorRole: "site_admin",
    action,
    targetKind: "campus",
    targetId: campusId,
    targetUserId: null,
    details,
    at: ctx.clock.now(),
  });
}

/** Decision 0610: adds a spot at the end of the campus's list (at most SPOT_LIMITS.perCampus). */
export async function addMeetupSpot(
  ctx: SpotContext,
  viewer: Pick<Viewer, "id"> | null,
  input: MeetupSpotInput,
): Promise<{ spotId: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, ...spot } = parseInput(meetupSpotSchema, input, invalidSpot);
  return ctx.db.transaction(async (tx) => {
    await lockCampus(tx, campusId);
    const [count] = await tx
      .select({
        n: sql<number>`count(*)::int`,
        last: sql<number>`coalesce(max(${meetupSpots.position}), 0)::int`,
      })
      .from(meetupSpots)
      .where(and(eq(meetupSpots.campusId, campusId), isNull(meetupSpots.archivedAt)));
    if ((count?.n ?? 0) >= SPOT_LIMITS.perCampus)
      throw new AdminError("invalid-input", MEETUP_MESSAGES.tooManySpots);
    const [row] = await tx
      .insert(meetupSpots)
      .values({ campusId, ...spot, position: (count?.last ?? 0) + 1, createdAt: ctx.clock.now() })
      .returning({ id: meetupSpots.id });
    if (!row) throw new Error("addMeetupSpot: no row written");
    await logSpot(tx, ctx, admin, campusId, "add_meetup_spot", { spotId: row.id, ...spot });
    return { spotId: row.id };
  });
}

/** Decision 0610: edits a spot; meetups already proposed there show the new words. */
export async function editMeetupSpot(
  ctx: SpotContext,
  viewer: Pick<Viewer, "id"> | null,
  input: EditMeetupSpotInput,
): Promise<{ spotId: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, spotId, ...spot } = parseInput(editMeetupSpotSchema, input, invalidSpot);
  await ctx.db.transaction(async (tx) => {
    await lockCampus(tx, campusId);
    const before = await activeSpot(tx, campusId, spotId);
    await tx.update(meetupSpots).set(spot).where(eq(meetupSpots.id, spotId));
    const changed = Object.fromEntries(
      Object.entries(spot).filter(([key, value]) => before[key as keyof typeof spot] !== value),
    );
    await logSpot(tx, ctx, admin, campusId, "edit_meetup_spot", { spotId, name: spot.name, changed });
  });
  return { spotId };
}

/** Decision 0610: removes a spot from the list by archiving it. */
export async function archiveMeetupSpot(
  ctx: SpotContext,
  viewer: Pick<Viewer, "id"> | null,
  input: MeetupSpotRefInput,
): Promise<{ spotId: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, spotId } = parseInput(meetupSpotRefSchema, input, invalidSpot);
  await ctx.db.transaction(async (tx) => {
    await lockCampus(tx, campusId);
    const spot = await activeSpot(tx, campusId, spotId);
    await tx.update(meetupSpots).set({ archivedAt: ctx.clock.now() }).where(eq(meetupSpots.id, spotId));
    await logSpot(tx, ctx, admin, campusId, "archive_meetup_spot", { spotId, name: spot.name });
  });
  return { spotId };
}

/** Decision 0610: moves a spot one place up or down the list (swapping with its neighbour). */
export async function moveMeetupSpot(
  ctx: SpotContext,
  viewer: Pick<Viewer, "id"> | null,
  input: MoveMeetupSpotInput,
): Promise<{ moved: boolean }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, spotId, direction } = parseInput(moveMeetupSpotSchema, input, invalidSpot);
  return ctx.db.transaction(async (tx) => {
    await lockCampus(tx, campusId);
    await activeSpot(tx, campusId, spotId);
    const list = await tx
      .select({ id: meetupSpots.id, name: meetupSpots.name })
      .from(meetupSpots)
      .where(and(eq(meetupSpots.campusId, campusId), isNull(meetupSpots.archivedAt)))
      .orderBy(asc(meetupSpots.position), asc(meetupSpots.createdAt));
    const from = list.findIndex((spot) => spot.id === spotId);
    const to = direction === "up" ? from - 1 : from + 1;
    const moving = list[from];
    if (!moving || to < 0 || to >= list.length) return { moved: false };
    list.splice(from, 1);
    list.splice(to, 0, moving);
    // Renumbered 1…n, so positions stay dense whatever archiving left behind.
    for (const [index, spot] of list.entries()) {
      await tx
        .update(meetupSpots)
        .set({ position: index + 1 })
        .where(eq(meetupSpots.id, spot.id));
    }
    await logSpot(tx, ctx, admin, campusId, "move_meetup_spot", { spotId, name: moving.name, direction });
    return { moved: true };
  });
}
