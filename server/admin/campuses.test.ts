import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLog } from "../../tests/support/console";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { seedCampuses } from "../campuses/campuses";
import { campuses } from "../db/schema";
import { runStaffCommand } from "../staff/command";
import {
  addCampusDomain,
  getCampusDetail,
  getCampusesPage,
  removeCampusDomain,
  setCampusHideThreshold,
} from "./campuses";
import { ADMIN_MESSAGES } from "./errors.shared";

let t: TestContext;
let admin: TestMember;
let moderator: TestMember;
let student: TestMember;
beforeAll(async () => {
  t = await createTestContext({ campusHosts: { ou: "oubuysell.com" } });
  admin = await createSiteAdmin(t);
  moderator = await createModerator(t, "smu");
  student = await createTestMember(t, { campusId: "smu" });
});
afterAll(() => t.close());

async function domainsOf(id: string) {
  const [row] = await t.ctx.db
    .select({ domains: campuses.domains })
    .from(campuses)
    .where(eq(campuses.id, id));
  return row?.domains;
}

describe("the campuses page (decision 0562)", () => {
  it("lists each school's hosts from configuration, domains, privacy, members and moderators", async () => {
    const page = await getCampusesPage(t.ctx, admin.viewer);
    expect(page.campuses.map((c) => c.id)).not.toContain("www");
    const ou = page.campuses.find((c) => c.id === "ou");
    expect(ou?.hosts).toEqual(
      expect.arrayContaining(["oubuysell.com", "www.oubuysell.com", "localhost:3000"]),
    );
    expect(ou?.domains).toEqual(["ou.edu"]);
    expect(ou?.privacy).toBe("public");
    const smu = page.campuses.find((c) => c.id === "smu");
    expect(smu).toMatchObject({ members: 2, verifiedMembers: 2, moderators: 1 });
    const detail = await getCampusDetail(t.ctx, admin.viewer, "smu");
    expect(detail.moderators.map((m) => m.email)).toEqual([moderator.email]);
  });

  it("a moderator and a student get the 404, and so does a crafted campus id", async () => {
    for (const who of [moderator.viewer, student.viewer, null]) {
      await expect(getCampusesPage(t.ctx, who)).rejects.toMatchObject({ status: 404 });
      await expect(getCampusDetail(t.ctx, who, "smu")).rejects.toMatchObject({ status: 404 });
      await expect(
        addCampusDomain(t.ctx, who, { campusId: "smu", domain: "cox.smu.edu" }),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        setCampusHideThreshold(t.ctx, who, { campusId: "smu", threshold: "5" }),
      ).rejects.toMatchObject({ status: 404 });
    }
    for (const id of ["www", "nowhere", "x".repeat(100)]) {
      await expect(getCampusDetail(t.ctx, admin.viewer, id)).rejects.toMatchObject({ status: 404 });
    }
    await expect(
      addCampusDomain(t.ctx, admin.viewer, { campusId: "nowhere", domain: "a.edu" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await domainsOf("smu")).toEqual(["smu.edu"]);
  });
});

describe("editing a campus's domains (decision 0562)", () => {
  it("a domain must be a domain, new, and no other campus's", async () => {
    for (const domain of ["", "smu", "a@smu.edu", "smu .edu", "-smu.edu", "x".repeat(260)]) {
      await expect(addCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain })).rejects.toMatchObject({
        field: "domain",
      });
    }
    await expect(
      addCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain: "SMU.edu." }),
    ).rejects.toMatchObject({
      message: ADMIN_MESSAGES.domainPresent,
    });
    await expect(
      addCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain: "ou.edu" }),
    ).rejects.toMatchObject({
      message: ADMIN_MESSAGES.domainTaken,
    });
    expect(await domainsOf("smu")).toEqual(["smu.edu"]);
  });

  it("adds and removes, logged with the admin; the last one stays; a start keeps the console's list", async () => {
    await addCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain: "Cox.SMU.edu" });
    expect(await domainsOf("smu")).toEqual(["smu.edu", "cox.smu.edu"]);
    expect(t.ctx.campuses.get("smu")?.domains).toEqual(["smu.edu", "cox.smu.edu"]);
    const [added] = await consoleLog(t, { targetId: "smu" });
    expect(added).toMatchObject({
      action: "set_domains",
      actorId: admin.id,
      actorRole: "site_admin",
      targetKind: "campus",
      campusId: "smu",
      details: { added: "cox.smu.edu", domains: ["smu.edu", "cox.smu.edu"] },
    });
    t.clock.advance(1000);
    await removeCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain: "smu.edu" });
    await expect(
      removeCampusDomain(t.ctx, admin.viewer, { campusId: "smu", domain: "cox.smu.edu" }),
    ).rejects.toMatchObject({ code: "last-domain", message: ADMIN_MESSAGES.lastDomain });
    expect((await consoleLog(t, { targetId: "smu" }))[0]).toMatchObject({
      details: { removed: "smu.edu", domains: ["cox.smu.edu"] },
    });
    // The next start: campuses.json's facts again, but not over the console's domains.
    await seedCampuses(t.ctx.db, t.ctx.config.publicCampuses);
    expect(await domainsOf("smu")).toEqual(["cox.smu.edu"]);
    await t.ctx.db
      .update(campuses)
      .set({ domains: ["stale.edu"] })
      .where(eq(campuses.id, "uf"));
    await seedCampuses(t.ctx.db, t.ctx.config.publicCampuses);
    expect(await domainsOf("uf")).toEqual(["ufl.edu"]);
  });
});

describe("the report threshold (decision 0542, as the staff command sets it)", () => {
  it("is set from 1 to 50, logged with the admin as the command logs it with none", async () => {
    for (const threshold of ["0", "51", "abc", ""]) {
      await expect(
        setCampusHideThreshold(t.ctx, admin.viewer, { campusId: "ut", threshold }),
      ).rejects.toMatchObject({ field: "threshold", message: ADMIN_MESSAGES.thresholdInvalid });
    }
    await setCampusHideThreshold(t.ctx, admin.viewer, { campusId: "ut", threshold: "4.5" });
    expect(t.ctx.campuses.get("ut")?.reportHideThreshold).toBe(4.5);
    t.clock.advance(1000);
    await runStaffCommand(t.ctx, ["hide-threshold", "ut", "6"]);
    const [byCommand, byAdmin] = await consoleLog(t, { targetId: "ut" });
    expect(byAdmin).toMatchObject({
      action: "set_hide_threshold",
      source: "staff",
      actorId: admin.id,
      details: { threshold: 4.5 },
    });
    expect(byCommand).toMatchObject({ action: "set_hide_threshold", source: "command", actorId: null });
  });
});
