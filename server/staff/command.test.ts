import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../scripts/staff";
import { seedCampuses } from "../campuses/campuses";
import { openDatabase } from "../db/client";
import { campuses, moderationLog, staffRoles, user } from "../db/schema";

// Decision 0522: `npm run staff` against the embedded database of a DATA_DIR of its own.
let dataDir: string;
const env = () => ({ DATA_DIR: dataDir, ADMIN_EMAILS: "kept@example.edu" });

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, env(), { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>) {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

const rolesAndLog = () =>
  withDatabase(async (db) => ({
    roles: await db
      .select({
        userId: staffRoles.userId,
        role: staffRoles.role,
        campusId: staffRoles.campusId,
        source: staffRoles.source,
      })
      .from(staffRoles),
    log: await db
      .select({ action: moderationLog.action, source: moderationLog.source, actorId: moderationLog.actorId })
      .from(moderationLog),
  }));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-staff-command-"));
  // The command migrates the database as the server's start does; then the campuses and two accounts.
  expect(await run("list")).toEqual({ code: 0, out: "No site admins or campus moderators.", err: "" });
  await withDatabase(async (db) => {
    await seedCampuses(db, []);
    const now = new Date("2026-03-02T15:00:00Z");
    for (const [id, email, verified] of [
      ["u-dana", "dana@example.edu", true],
      ["u-kept", "kept@example.edu", true],
      ["u-new", "new@example.edu", false],
    ] as const) {
      await db.insert(user).values({
        id,
        name: "Dana K.",
        email,
        verified,
        firstName: "Dana",
        lastName: "K.",
        username: id,
        campusId: "ou",
        createdAt: now,
        updatedAt: now,
      });
    }
  });
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run staff", () => {
  it("grants and revokes a site admin and a campus moderator by e-mail, logged with the source 'command'", async () => {
    expect(await run("grant", "admin", "Dana@Example.edu")).toMatchObject({
      code: 0,
      out: "Dana K. <dana@example.edu> is now a site admin.",
    });
    expect(await run("grant", "admin", "dana@example.edu")).toMatchObject({
      code: 0,
      out: "Dana K. <dana@example.edu> is already a site admin; nothing changed.",
    });
    expect(await run("grant", "moderator", "dana@example.edu", "OU")).toMatchObject({
      code: 0,
      out: "Dana K. <dana@example.edu> is now a moderator of OU (ou).",
    });
    const listed = await run("list");
    expect(listed.code).toBe(0);
    expect(listed.out).toContain("site admin        dana@example.edu (Dana K.; npm run staff, ");
    expect(listed.out).toContain("moderator of ou   dana@example.edu (Dana K.; npm run staff, ");

    expect(await run("revoke", "moderator", "dana@example.edu", "ou")).toMatchObject({
      code: 0,
      out: "Dana K. <dana@example.edu> is no longer a moderator of OU (ou).",
    });
    expect(await run("revoke", "admin", "dana@example.edu")).toMatchObject({ code: 0 });
    const { roles, log } = await rolesAndLog();
    expect(roles).toEqual([]);
    expect(log).toEqual([
      { action: "grant_role", source: "command", actorId: null },
      { action: "grant_role", source: "command", actorId: null },
      { action: "revoke_role", source: "command", actorId: null },
      { action: "revoke_role", source: "command", actorId: null },
    ]);
  });

  it("warns that an address still in ADMIN_EMAILS becomes a site admin again at the next start", async () => {
    expect((await run("grant", "admin", "kept@example.edu")).code).toBe(0);
    const revoked = await run("revoke", "admin", "kept@example.edu");
    expect(revoked.out).toContain(
      "The address is still in ADMIN_EMAILS: the next start makes it a site admin again.",
    );
  });

  it("refuses an unknown e-mail, an unverified one and an unknown campus with exit code 1, changing nothing", async () => {
    const before = await rolesAndLog();
    expect(await run("grant", "admin", "nobody@example.edu")).toEqual({
      code: 1,
      out: "",
      err: "No account uses the e-mail address nobody@example.edu. Nothing changed.",
    });
    expect(await run("grant", "admin", "new@example.edu")).toMatchObject({
      code: 1,
      err: "The account of new@example.edu has not verified its e-mail address yet. Nothing changed.",
    });
    expect(await run("grant", "moderator", "dana@example.edu", "atlantis")).toMatchObject({
      code: 1,
      err: "There is no campus 'atlantis'. Campus ids are the sites' names: ou, ut, … Nothing changed.",
    });
    expect(await run("grant", "moderator", "dana@example.edu", "www")).toMatchObject({ code: 1 });
    expect(await rolesAndLog()).toEqual(before);
  });

  it("sets a campus's hide threshold (decision 0542), logged as the command's; refuses a bad weight or campus", async () => {
    const set = await run("hide-threshold", "ut", "4.5");
    expect(set).toMatchObject({ code: 0 });
    expect(set.out).toContain("Reports weighing 4.5 (from 2 students or more) now hide a post on");
    const threshold = () =>
      withDatabase(async (db) => {
        const [row] = await db
          .select({ threshold: campuses.reportHideThreshold })
          .from(campuses)
          .where(eq(campuses.id, "ut"));
        return row?.threshold;
      });
    expect(await threshold()).toBe(4.5);
    const logged = await withDatabase((db) =>
      db.select().from(moderationLog).where(eq(moderationLog.action, "set_hide_threshold")),
    );
    expect(logged).toMatchObject([{ campusId: "ut", source: "command", details: { threshold: 4.5 } }]);
    for (const weight of ["0", "51", "three", "-2"]) {
      expect((await run("hide-threshold", "ut", weight)).code).toBe(2);
    }
    expect((await run("hide-threshold", "nowhere", "3")).code).toBe(1);
    expect(await threshold()).toBe(4.5);
  });

  it("prints its usage for a command it does not know, with exit code 2", async () => {
    for (const args of [
      [],
      ["promote", "dana@example.edu"],
      ["grant", "moderator", "dana@example.edu"],
      ["grant", "admin"],
    ]) {
      const result = await run(...args);
      expect(result.code).toBe(2);
      expect(result.err).toContain("Usage: npm run staff -- <command>");
    }
  });

  it("says so, and changes nothing, while the server holds the embedded database", async () => {
    const database = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const result = await run("grant", "admin", "dana@example.edu");
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        `The embedded database is in use by process ${process.pid} (a running server?). Stop it first, or use DATABASE_URL. ` +
          `If no such process runs, delete ${path.join(dataDir, "db.lock")}.`,
      );
    } finally {
      await database.close();
    }
    expect((await rolesAndLog()).roles).toEqual([]);
  });
});
