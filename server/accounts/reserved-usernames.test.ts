import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { generateRandomString } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/app/routes";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import campusList from "../campuses/campuses.json";
import { type DatabaseHandle, pgliteExtensions, wrapPglite } from "../db/client";
import { migrateDatabase, migrationsFolder } from "../db/migrate";
import { user } from "../db/schema";
import { startApp } from "../http/app";
import { isReservedUsername, RESERVED_USERNAMES } from "./reserved-usernames.shared";

/** The first static segment of every route's path, nested routes joined to their parents'. */
function firstSegments(entries: RouteConfigEntry[], parentPath = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parentPath, entry.path ?? ""].filter(Boolean).join("/");
    const first = path.split("/")[0] ?? "";
    const own = entry.path && first && !first.startsWith(":") && !first.startsWith("*") ? [first] : [];
    return [...own, ...firstSegments(entry.children ?? [], path)];
  });
}

/** A mounted Express app's router layers, as far as this test reads them (Express 5's router 2). */
interface MountedLayer {
  rawPath?: unknown;
  route?: { path?: unknown };
  handle?: { stack?: MountedLayer[] };
}

/**
 * The first static segment of every path an Express app answers ahead of React Router: its
 * routes (`app.get('/healthz')`), the paths it mounts middleware on (`app.use('/media-files')`)
 * and, inside routers mounted on '/', theirs. Middleware on '/' itself names no path.
 */
function mountedFirstSegments(app: { router: { stack: MountedLayer[] } }): string[] {
  const walk = (stack: MountedLayer[]): string[] =>
    stack.flatMap((layer) => {
      const raw = layer.route?.path ?? layer.rawPath;
      const paths = (Array.isArray(raw) ? raw : [raw]).filter((p): p is string => typeof p === "string");
      if (paths.length === 0) throw new Error(`a mounted path the test cannot read: ${String(raw)}`);
      const nested = paths.includes("/") && layer.handle?.stack ? walk(layer.handle.stack) : [];
      const own = paths
        .map((p) => p.split("/")[1] ?? "")
        .filter((first) => first !== "" && !first.startsWith(":") && !first.startsWith("*"));
      return [...own, ...nested];
    });
  return walk(app.router.stack);
}

describe("reserved usernames (decision 0125)", () => {
  it("hold every first path segment of the route table, so a new page cannot be forgotten", () => {
    const segments = [...new Set(firstSegments(routes))];
    // The table really was read: the spec's pages are there.
    expect(segments).toEqual(expect.arrayContaining(["home", "settings", "login", "media", "post", "dev"]));
    const missing = segments.filter((segment) => !isReservedUsername(segment));
    expect(missing).toEqual([]);
  });

  it("hold every first path segment the Express app serves before the pages, and every file of public/", async () => {
    // Decision 0445: '/events' (the live-event stream) was served here, but a student named
    // 'Event Smith' was handed the username 'events'. The app is built as main.js builds it, with the
    // test fixtures on (they are served outside production), and its routing tables are read.
    const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-reserved-"));
    const running = await startApp({
      dev: false,
      build: async () => ({}) as ServerBuild,
      env: {
        DATA_DIR: dataDir,
        SEED_DEMO: "0",
        TEST_FIXTURES: "1",
        PAGE_CACHE_SECONDS: "0",
        LOG_LEVEL: "silent",
      },
    });
    try {
      const served = [running.app, running.listPages, running.eventStream].flatMap((app) =>
        mountedFirstSegments(app as unknown as { router: { stack: MountedLayer[] } }),
      );
      // The tables really were read: the paths main.js and app.ts mount are there.
      expect(served).toEqual(
        expect.arrayContaining(["healthz", "api", "media-files", "events", "webhooks", "dev"]),
      );
      // main.js serves the built client (public/ and Vite's assets/) ahead of the pages too.
      const files = readdirSync(path.join(__dirname, "../../public"));
      expect(files).toEqual(expect.arrayContaining(["favicon.svg", "icons", "logos", "sw.js"]));
      const missing = [...new Set([...served, ...files, "assets"])].filter(
        (name) => !isReservedUsername(name),
      );
      expect(missing).toEqual([]);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The whole app starts, a fresh database migrated: slow on a busy machine.
  }, 120_000);

  it("hold the paths served before the pages, the staff's names and every campus's slug and code", () => {
    for (const name of ["healthz", "api", "assets", "logos", "favicon.svg", "media-files"]) {
      expect(isReservedUsername(name)).toBe(true);
    }
    for (const name of ["admin", "administrator", "support", "moderator", "mod", "staff", "help"]) {
      expect(isReservedUsername(name)).toBe(true);
    }
    for (const name of ["security", "root", "system", "official", "team", "campusbuysell"]) {
      expect(isReservedUsername(name)).toBe(true);
    }
    for (const campus of campusList) {
      expect(isReservedUsername(campus.slug)).toBe(true);
      expect(isReservedUsername(campus.code)).toBe(true);
    }
  });

  it("are compared in any case, and ordinary names are free", () => {
    expect(isReservedUsername("ADMIN")).toBe(true);
    expect(isReservedUsername("HealthZ")).toBe(true);
    expect(isReservedUsername(" Settings ")).toBe(true);
    expect(isReservedUsername("olivias")).toBe(false);
    expect(isReservedUsername("admin-2")).toBe(false);
    expect(RESERVED_USERNAMES.every((name) => name === name.toLowerCase())).toBe(true);
  });
});

describe("the database's guard on reserved usernames", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const insertUser = (username: string) =>
    t.ctx.db.insert(user).values({
      id: generateRandomString(32, "a-z", "A-Z", "0-9"),
      name: "Test S.",
      email: `${generateRandomString(12, "a-z")}@example.edu`,
      firstName: "Test",
      lastName: "S.",
      username,
      campusId: "ou",
    });

  it("refuses a row with a reserved username, whatever writes it and in any case", async () => {
    for (const username of ["admin", "Home", "HEALTHZ", "ou", "okstate", "support"]) {
      await expect(insertUser(username)).rejects.toThrow();
      expect(await t.ctx.db.select().from(user).where(eq(user.username, username))).toEqual([]);
    }
    await insertUser("admin-2");
    expect(
      await t.ctx.db.select({ id: user.id }).from(user).where(eq(user.username, "admin-2")),
    ).toHaveLength(1);
  });
});

/**
 * Accounts made in a database migrated up to (not including) the migration whose tag ends in
 * `tagEnd`, as `user-0`, `user-1` …; then the rest of the migrations run. `check` gets their
 * usernames after it, by id, and the database, to probe the guard.
 */
async function acrossMigration(
  tagEnd: string,
  accounts: { username: string; createdAt?: Date }[],
  check: (rows: { id: string; username: string }[], db: DatabaseHandle["db"]) => Promise<void>,
): Promise<void> {
  const before = mkdtempSync(path.join(tmpdir(), "cbs-migrations-"));
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const index = journal.entries.findIndex((entry) => entry.tag.endsWith(tagEnd));
  expect(index).toBeGreaterThan(0);
  mkdirSync(path.join(before, "meta"));
  const earlier = journal.entries.slice(0, index);
  writeFileSync(path.join(before, "meta/_journal.json"), JSON.stringify({ ...journal, entries: earlier }));
  for (const entry of earlier) {
    copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
  }

  const client = await PGlite.create({ extensions: pgliteExtensions });
  const handle = wrapPglite(client);
  try {
    await migrateDatabase(handle, before);
    // Raw SQL naming only the columns the early schema had: the ORM would list every column the
    // current schema has, and later migrations add some (campuses.report_hide_threshold, …).
    await handle.db.execute(sql`insert into campuses (id, code, name) values ('ou', 'OU', 'OU')`);
    for (const [i, account] of accounts.entries()) {
      await handle.db.execute(sql`
        insert into "user" (id, name, email, first_name, last_name, username, campus_id, created_at, updated_at)
        values (${`user-${i}`}, 'Test S.', ${`holder${i}@example.edu`}, 'Test', 'S.', ${account.username}, 'ou',
          coalesce(${account.createdAt?.toISOString() ?? null}::timestamptz, now()), now())`);
    }

    await migrateDatabase(handle);

    const rows = await handle.db.select({ id: user.id, username: user.username }).from(user).orderBy(user.id);
    await check(rows, handle.db);
  } finally {
    await handle.close();
    rmSync(before, { recursive: true, force: true });
  }
}

describe("the migration that adds the guard", () => {
  it("renames the accounts that already hold a reserved username to the next free one, then guards", async () => {
    // The migrations before the guard, as a database made before decision 0125 has them.
    const holders = ["admin", "Home", "healthz", "admin-2", "olivias"];
    await acrossMigration(
      "_reserved_usernames",
      holders.map((username) => ({ username })),
      async (rows, db) => {
        expect(rows).toEqual([
          // 'admin-2' was taken already, so the old 'admin' becomes 'admin-3'.
          { id: "user-0", username: "admin-3" },
          { id: "user-1", username: "home-2" },
          { id: "user-2", username: "healthz-2" },
          { id: "user-3", username: "admin-2" },
          { id: "user-4", username: "olivias" },
        ]);
        await expect(
          db.update(user).set({ username: "Support" }).where(eq(user.id, "user-4")),
        ).rejects.toThrow();
      },
    );
  });
});

describe("the migration that reserves 'icons' (decision 0253)", () => {
  it("renames the accounts named 'icons' in any case, oldest first, each to the next free name", async () => {
    // The migrations before it, as a database made before the notifications issue has them.
    // 'icons-2' and 'ICONS-4' are taken; 'Icons' is the oldest holder.
    const accounts = [
      { username: "icons", createdAt: new Date("2026-01-02T00:00:00Z") },
      { username: "Icons", createdAt: new Date("2026-01-01T00:00:00Z") },
      { username: "icons-2", createdAt: new Date("2026-01-03T00:00:00Z") },
      { username: "ICONS-4", createdAt: new Date("2026-01-04T00:00:00Z") },
      { username: "iconsx", createdAt: new Date("2026-01-05T00:00:00Z") },
    ];
    await acrossMigration("_notifications", accounts, async (rows, db) => {
      // user-0 … user-4: the older holder ('Icons') takes the first free name, icons-3; the other skips icons-4.
      expect(rows.map((row) => row.username)).toEqual(["icons-5", "icons-3", "icons-2", "ICONS-4", "iconsx"]);
      await expect(db.update(user).set({ username: "Icons" }).where(eq(user.id, "user-4"))).rejects.toThrow();
    });
  });
});

describe("the migration that reserves 'events' and 'webhooks' (decision 0445)", () => {
  it("renames the holders of each name, oldest first, to that name's next free one", async () => {
    // The migrations before it, as a database made before decision 0445 has them. 'events-2' is taken.
    const accounts = [
      { username: "events", createdAt: new Date("2026-01-02T00:00:00Z") },
      { username: "Events", createdAt: new Date("2026-01-01T00:00:00Z") },
      { username: "events-2", createdAt: new Date("2026-01-03T00:00:00Z") },
      { username: "WEBHOOKS", createdAt: new Date("2026-01-04T00:00:00Z") },
      { username: "eventsx", createdAt: new Date("2026-01-05T00:00:00Z") },
    ];
    await acrossMigration("_reserve_events_and_webhooks", accounts, async (rows, db) => {
      // user-0 … user-4: the older 'Events' takes events-3, the other events-4; 'WEBHOOKS' webhooks-2.
      expect(rows.map((row) => row.username)).toEqual([
        "events-4",
        "events-3",
        "events-2",
        "webhooks-2",
        "eventsx",
      ]);
      await expect(
        db.update(user).set({ username: "Events" }).where(eq(user.id, "user-4")),
      ).rejects.toThrow();
      await expect(
        db.update(user).set({ username: "webhooks" }).where(eq(user.id, "user-4")),
      ).rejects.toThrow();
    });
  });
});

describe("the migration that reserves 'modlog' (decision 0520)", () => {
  it("renames its holders, oldest first, to the next free names before the guard", async () => {
    // The migrations before it, as a database made before the staff tables has them. 'modlog-2' is taken.
    const accounts = [
      { username: "ModLog", createdAt: new Date("2026-01-02T00:00:00Z") },
      { username: "modlog", createdAt: new Date("2026-01-01T00:00:00Z") },
      { username: "modlog-2", createdAt: new Date("2026-01-03T00:00:00Z") },
      { username: "modlogger", createdAt: new Date("2026-01-04T00:00:00Z") },
    ];
    await acrossMigration("_staff_roles_and_moderation_log", accounts, async (rows, db) => {
      expect(rows.map((row) => row.username)).toEqual(["modlog-4", "modlog-3", "modlog-2", "modlogger"]);
      await expect(
        db.update(user).set({ username: "MODLOG" }).where(eq(user.id, "user-3")),
      ).rejects.toThrow();
    });
  });
});

describe("the migration that reserves 'trade' and 'deals' (decisions 0601 and 0618)", () => {
  it("renames the holders of each name, oldest first, to that name's next free one", async () => {
    // The migrations before it, as a database made before the trade's pages has them. 'trade-2' is taken.
    const accounts = [
      { username: "Trade", createdAt: new Date("2026-01-02T00:00:00Z") },
      { username: "trade", createdAt: new Date("2026-01-01T00:00:00Z") },
      { username: "trade-2", createdAt: new Date("2026-01-03T00:00:00Z") },
      { username: "DEALS", createdAt: new Date("2026-01-04T00:00:00Z") },
      { username: "trader", createdAt: new Date("2026-01-05T00:00:00Z") },
    ];
    await acrossMigration("_reserve_trade_paths", accounts, async (rows, db) => {
      expect(rows.map((row) => row.username)).toEqual(["trade-4", "trade-3", "trade-2", "deals-2", "trader"]);
      await expect(db.update(user).set({ username: "TRADE" }).where(eq(user.id, "user-4"))).rejects.toThrow();
      await expect(db.update(user).set({ username: "deals" }).where(eq(user.id, "user-4"))).rejects.toThrow();
    });
  });
});
