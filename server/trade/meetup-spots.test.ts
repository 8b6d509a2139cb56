import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLog } from "../../tests/support/console";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { logActionWords } from "../moderation/rules.shared";
import {
  MEETUP_MESSAGES,
  type MeetupSpotInput,
  type MoveMeetupSpotInput,
  SPOT_LIMITS,
} from "./meetup-rules.shared";
import {
  addMeetupSpot,
  archiveMeetupSpot,
  editMeetupSpot,
  getCampusSpotsForAdmin,
  listCampusSpots,
  moveMeetupSpot,
} from "./meetup-spots";

let t: TestContext;
let admin: TestMember;
let moderator: TestMember;
let student: TestMember;
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t);
  moderator = await createModerator(t, "smu");
  student = await createTestMember(t, { campusId: "smu" });
});
afterAll(() => t.close());

const spot: MeetupSpotInput & { hours: string; rules: string } = {
  campusId: "smu",
  name: "SMU Police safe exchange zone",
  kind: "police",
  address: "3025 Hillcrest Ave, Dallas, TX 75205",
  hours: "Open 24 hours",
  rules: "Meet in the lobby. Bring a friend.",
};

describe("a campus's meetup spots on the console (decision 0610)", () => {
  it("only site admins read or change them: a moderator, a student and nobody get the 404", async () => {
    for (const who of [moderator.viewer, student.viewer, null]) {
      await expect(getCampusSpotsForAdmin(t.ctx, who, "smu")).rejects.toMatchObject({ status: 404 });
      await expect(addMeetupSpot(t.ctx, who, spot)).rejects.toMatchObject({ status: 404 });
    }
    expect(await listCampusSpots(t.ctx.db, "smu")).toEqual([]);
  });

  it("adds one, validated and logged on the campus with the admin", async () => {
    const bad: [Record<string, string>, string][] = [
      [{ name: "  " }, MEETUP_MESSAGES.nameRequired],
      [{ name: "x".repeat(101) }, MEETUP_MESSAGES.nameTooLong],
      [{ kind: "parking lot" }, MEETUP_MESSAGES.kindRequired],
      [{ address: "" }, MEETUP_MESSAGES.addressRequired],
      [{ address: "x".repeat(201) }, MEETUP_MESSAGES.addressTooLong],
      [{ hours: "x".repeat(201) }, MEETUP_MESSAGES.hoursTooLong],
      [{ rules: "x".repeat(501) }, MEETUP_MESSAGES.rulesTooLong],
    ];
    for (const [change, message] of bad) {
      await expect(
        addMeetupSpot(t.ctx, admin.viewer, { ...spot, ...change } as MeetupSpotInput),
      ).rejects.toMatchObject({
        status: 400,
        message,
      });
    }
    await expect(addMeetupSpot(t.ctx, admin.viewer, { ...spot, campusId: "www" })).rejects.toMatchObject({
      status: 404,
    });
    expect(await listCampusSpots(t.ctx.db, "smu")).toEqual([]);
    const { spotId } = await addMeetupSpot(t.ctx, admin.viewer, { ...spot, name: `  ${spot.name} ` });
    const { spots } = await getCampusSpotsForAdmin(t.ctx, admin.viewer, "smu");
    const { campusId: _campus, ...fields } = spot;
    expect(spots).toEqual([{ id: spotId, ...fields }]);
    const [row] = await consoleLog(t, { targetId: "smu" });
    expect(row).toMatchObject({
      action: "add_meetup_spot",
      actorId: admin.id,
      actorRole: "site_admin",
      source: "staff",
      targetKind: "campus",
      campusId: "smu",
      details: { spotId, name: spot.name },
    });
    expect(logActionWords("add_meetup_spot", null)).toBe("Added a meetup spot");
  });

  it("edits, reorders and removes (archives), each logged; another campus's spot is a 404", async () => {
    const { spotId: library } = await addMeetupSpot(t.ctx, admin.viewer, {
      ...spot,
      name: "Fondren Library",
      kind: "library",
    });
    const [police] = await listCampusSpots(t.ctx.db, "smu");
    if (!police) throw new Error("no spot");
    t.clock.advance(1000);
    await editMeetupSpot(t.ctx, admin.viewer, { ...spot, spotId: police.id, hours: "24/7" });
    expect((await listCampusSpots(t.ctx.db, "smu"))[0]?.hours).toBe("24/7");
    expect((await consoleLog(t, { targetId: "smu" }))[0]).toMatchObject({
      action: "edit_meetup_spot",
      details: { spotId: police.id, changed: { hours: "24/7" } },
    });
    t.clock.advance(1000);
    expect(
      await moveMeetupSpot(t.ctx, admin.viewer, { campusId: "smu", spotId: library, direction: "up" }),
    ).toEqual({ moved: true });
    expect((await listCampusSpots(t.ctx.db, "smu")).map((s) => s.id)).toEqual([library, police.id]);
    expect(
      await moveMeetupSpot(t.ctx, admin.viewer, { campusId: "smu", spotId: library, direction: "up" }),
    ).toEqual({ moved: false });
    // Another campus's id, a made-up one, a tampered direction.
    await expect(
      editMeetupSpot(t.ctx, admin.viewer, { ...spot, campusId: "ou", spotId: library }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      archiveMeetupSpot(t.ctx, admin.viewer, { campusId: "smu", spotId: crypto.randomUUID() }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      moveMeetupSpot(t.ctx, admin.viewer, {
        campusId: "smu",
        spotId: library,
        direction: "left",
      } as unknown as MoveMeetupSpotInput),
    ).rejects.toMatchObject({ status: 400 });
    t.clock.advance(1000);
    await archiveMeetupSpot(t.ctx, admin.viewer, { campusId: "smu", spotId: library });
    expect((await listCampusSpots(t.ctx.db, "smu")).map((s) => s.id)).toEqual([police.id]);
    expect((await consoleLog(t, { targetId: "smu" }))[0]).toMatchObject({
      action: "archive_meetup_spot",
      details: { spotId: library, name: "Fondren Library" },
    });
    // Archived: no longer editable.
    await expect(editMeetupSpot(t.ctx, admin.viewer, { ...spot, spotId: library })).rejects.toMatchObject({
      status: 404,
    });
  });

  it(`holds at most ${SPOT_LIMITS.perCampus} spots a campus`, async () => {
    for (let i = 0; i < SPOT_LIMITS.perCampus; i++) {
      await addMeetupSpot(t.ctx, admin.viewer, { ...spot, campusId: "uf", name: `Spot ${i}` });
    }
    await expect(
      addMeetupSpot(t.ctx, admin.viewer, { ...spot, campusId: "uf", name: "One more" }),
    ).rejects.toMatchObject({ status: 400, message: MEETUP_MESSAGES.tooManySpots });
  });
});
