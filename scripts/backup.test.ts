import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import yazl from "yazl";
import { CONTROL_FILE } from "../server/backups/control-server";
import { pgliteExtensions } from "../server/db/client";
import type { TestStudent } from "../server/dev/test-student";
import { type AppProcess, startAppProcess } from "./app-process";
import { main as backup } from "./backup";
import { main as restore } from "./restore";

// Decision 0580: `npm run backup` of a running app while it serves, `npm run restore` into a fresh
// folder, and the restored app serves the same posts, photos and sessions. The app runs through
// Vite (`main.js --dev`): this suite runs before `npm test` builds.

const PORTS = { source: 5261, restored: 5262 };
const embedded = !process.env.DATABASE_URL;

function recorder() {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    output: { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) },
  };
}

function appEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    TEST_FIXTURES: "1",
    PUBLIC_CAMPUSES: "all",
    LOG_LEVEL: "warn",
    POSTS_PER_MINUTE: "0",
    POSTS_PER_DAY: "0",
  };
}

/** The first page of a list: a cursor past any post (server/lists/cursor.ts's form). */
const FIRST_PAGE = Buffer.from(
  JSON.stringify(["2999-01-01T00:00:00.000000Z", "ffffffff-ffff-4fff-bfff-ffffffffffff"]),
).toString("base64url");

interface Summary {
  id: string;
  ownedByViewer: boolean;
  firstMedia: { url: string; thumbUrl: string | null } | null;
  author: { id: string };
}

async function listPage(base: string, list: string, cookie: string, user?: string): Promise<Summary[]> {
  const query = new URLSearchParams({ cursor: FIRST_PAGE, ...(user ? { user } : {}) });
  const response = await fetch(`${base}/api/lists/${list}?${query}`, { headers: { cookie } });
  expect(response.status, `${list}: ${response.status}`).toBe(200);
  return ((await response.json()) as { page: { items: Summary[] } }).page.items;
}

async function bytesOf(base: string, url: string): Promise<Buffer> {
  const response = await fetch(`${base}${url}`);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** What a student sees of their own posts: ids, ownership (the session), each photo's bytes. */
async function snapshotOf(base: string, student: TestStudent) {
  const cookie = `${student.cookie.name}=${student.cookie.value}`;
  const items = await listPage(base, "profile-posts", cookie, student.id);
  const photos: Record<string, string> = {};
  for (const item of items) {
    for (const url of [item.firstMedia?.url, item.firstMedia?.thumbUrl]) {
      if (url) photos[url] = (await bytesOf(base, url)).toString("base64");
    }
  }
  const session = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
  const sessionUser = ((await session.json()) as { user?: { id: string } } | null)?.user?.id ?? null;
  return { posts: items.map((item) => ({ id: item.id, owned: item.ownedByViewer })), photos, sessionUser };
}

async function createStudent(base: string, label: string, photos: number): Promise<TestStudent> {
  const response = await fetch(`${base}/dev/test-student`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      label,
      posts: [
        { text: `${label}: desk lamp, works fine`, photos },
        { text: `${label}: bike, needs a new chain`, photos: 1 },
      ],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TestStudent;
}

/** A small archive of our format around a database that is no database (it does not open). */
async function tinyArchive(file: string, manifestChanges: Record<string, unknown> = {}) {
  const zip = new yazl.ZipFile();
  const files = { "data/db/PG_VERSION": "18\n", "data/media/a/photo.webp": "not really a photo" };
  zip.addEmptyDirectory("data/db/");
  zip.addEmptyDirectory("data/media/");
  zip.addEmptyDirectory("data/media/a/");
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  const manifest = {
    format: "campus-buy-sell-backup",
    formatVersion: 1,
    appVersion: "0.1.0",
    createdAt: "2026-03-02T15:00:00.000Z",
    database: "pglite",
    migrations: { applied: 1, latest: 1 },
    media: "local",
    entries: 5,
    bytes: Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    ...manifestChanges,
  };
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), "manifest.json");
  zip.end();
  const out: Buffer[] = [];
  for await (const chunk of zip.outputStream) out.push(chunk as Buffer);
  writeFileSync(file, Buffer.concat(out));
}

async function backupRows(dataDir: string): Promise<{ file: string; bytes: number }[]> {
  const client = await PGlite.create(path.join(dataDir, "db"), { extensions: pgliteExtensions });
  try {
    const result = await client.query<{ file: string; bytes: number }>(
      "select file, bytes::int as bytes from backups order by created_at",
    );
    return result.rows;
  } finally {
    await client.close();
  }
}

describe.skipIf(!embedded)("npm run backup and npm run restore (decision 0580)", () => {
  let root: string;
  let sourceDir: string;
  let archive: string;
  let apps: AppProcess[] = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "cbs-backup-"));
    sourceDir = path.join(root, "source");
    archive = path.join(root, "site.zip");
    // The migrated database every test file starts from, so the app does not migrate at start.
    mkdirSync(path.join(sourceDir, "db"), { recursive: true });
    const seeded = await PGlite.create(path.join(sourceDir, "db"), {
      loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
      extensions: pgliteExtensions,
    });
    await seeded.close();
  }, 180_000);

  afterAll(async () => {
    for (const app of apps) await app.stop();
    apps = [];
    rmSync(root, { recursive: true, force: true });
  }, 120_000);

  async function start(dataDir: string, port: number, name: string): Promise<AppProcess> {
    const app = await startAppProcess({
      env: appEnv(dataDir, port),
      port,
      dev: true,
      name,
      output: path.join(root, `${name}.log`),
      startTimeoutMs: 180_000,
    });
    apps.push(app);
    return app;
  }

  async function stop(app: AppProcess): Promise<void> {
    expect(await app.stop()).toBe(0);
    apps = apps.filter((running) => running !== app);
  }

  it("backs up a serving app and restores the same posts, photos and sessions", {
    timeout: 480_000,
  }, async () => {
    const source = await start(sourceDir, PORTS.source, "source");
    const sourceBase = `http://127.0.0.1:${PORTS.source}`;
    const student = await createStudent(sourceBase, "before", 2);
    const before = await snapshotOf(sourceBase, student);
    expect(before.posts.length).toBeGreaterThanOrEqual(2);
    expect(before.posts.every((post) => post.owned)).toBe(true);
    expect(Object.keys(before.photos).length).toBeGreaterThanOrEqual(4);
    expect(before.sessionUser).toBe(student.id);
    // The control file is the server's, readable by its owner only.
    expect(statSync(path.join(sourceDir, CONTROL_FILE)).mode & 0o777).toBe(0o600);

    // Reads and writes keep coming while the snapshot is taken and the archive written.
    let backingUp = true;
    let startedDuring = 0;
    const statuses: number[] = [];
    const cookie = `${student.cookie.name}=${student.cookie.value}`;
    const traffic = async (request: () => Promise<Response>) => {
      while (backingUp) {
        startedDuring++;
        const response = await request();
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    };
    const reader = traffic(() =>
      fetch(`${sourceBase}/api/lists/profile-posts?cursor=${FIRST_PAGE}&user=${student.id}`, {
        headers: { cookie },
      }),
    );
    const writer = traffic(() =>
      fetch(`${sourceBase}/dev/test-student`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ label: "during", posts: [{ text: "Made during the backup", photos: 1 }] }),
      }),
    );
    const made = recorder();
    const code = await backup([archive], { DATA_DIR: sourceDir }, made.output).finally(() => {
      backingUp = false;
    });
    await Promise.all([reader, writer]);
    expect(made.lines.err).toEqual([]);
    expect(code).toBe(0);
    expect(made.lines.out[0]).toContain("taken by the running server");
    expect(startedDuring).toBeGreaterThanOrEqual(2);
    expect(statuses.every((status) => status === 200 || status === 201)).toBe(true);
    // The server's staging folder is gone once the backup is recorded.
    expect(readdirSync(path.join(sourceDir, "tmp", "backups"))).toEqual([]);
    await stop(source);
    // A server stopped cleanly takes its control file with it.
    expect(existsSync(path.join(sourceDir, CONTROL_FILE))).toBe(false);

    const restoredDir = path.join(root, "restored");
    const restoring = recorder();
    expect(await restore([archive], { DATA_DIR: restoredDir }, restoring.output)).toBe(0);
    expect(restoring.lines.err).toEqual([]);
    expect(readdirSync(restoredDir).sort()).toEqual(["app-secret", "db", "media", "vapid-keys.json"]);

    const restored = await start(restoredDir, PORTS.restored, "restored");
    const restoredBase = `http://127.0.0.1:${PORTS.restored}`;
    expect(await snapshotOf(restoredBase, student)).toEqual(before);
    // Whatever the writes during the backup left in the snapshot, every photo it lists is there.
    for (const item of await listPage(restoredBase, "feed", "")) {
      for (const url of [item.firstMedia?.url, item.firstMedia?.thumbUrl])
        if (url) await bytesOf(restoredBase, url);
    }
    await stop(restored);

    // With no server running, the command opens the database itself. Each backup is a row in the
    // database it copied, written after its snapshot by whoever took it.
    const second = path.join(root, "second.zip");
    const direct = recorder();
    expect(await backup([second], { DATA_DIR: sourceDir }, direct.output)).toBe(0);
    expect(direct.lines.out[0]).not.toContain("running server");
    expect(await backupRows(sourceDir)).toEqual([
      { file: "site.zip", bytes: statSync(archive).size },
      { file: "second.zip", bytes: statSync(second).size },
    ]);
  });

  it("refuses a non-empty folder, a damaged or foreign archive, and leaves nothing half-restored", {
    timeout: 120_000,
  }, async () => {
    expect(existsSync(archive), "the first test wrote the archive").toBe(true);
    const target = path.join(root, "target");

    // Not empty: nothing is touched.
    mkdirSync(target);
    writeFileSync(path.join(target, "notes.txt"), "mine");
    const busy = recorder();
    expect(await restore([archive], { DATA_DIR: target }, busy.output)).toBe(1);
    expect(busy.lines.err.join("\n")).toContain("is not empty (notes.txt)");
    expect(readdirSync(target)).toEqual(["notes.txt"]);
    rmSync(path.join(target, "notes.txt"));

    // Damaged in the middle (a checksum), or cut short (no central directory): refused before writing.
    const bytes = readFileSync(archive);
    const damaged = Buffer.from(bytes);
    for (let at = Math.floor(bytes.length / 2); at < bytes.length / 2 + 64; at++)
      damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    writeFileSync(path.join(root, "damaged.zip"), damaged);
    writeFileSync(path.join(root, "cut.zip"), bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    writeFileSync(path.join(root, "text.zip"), "not a zip at all");
    for (const name of ["damaged.zip", "cut.zip", "text.zip"]) {
      const refused = recorder();
      expect(await restore([path.join(root, name)], { DATA_DIR: target }, refused.output), name).toBe(1);
      expect(refused.lines.err.join("\n"), name).toMatch(/damaged|not a backup archive/);
      expect(readdirSync(target), name).toEqual([]);
    }

    // A newer format: refused with its number.
    await tinyArchive(path.join(root, "v2.zip"), { formatVersion: 2 });
    const newer = recorder();
    expect(await restore([path.join(root, "v2.zip")], { DATA_DIR: target }, newer.output)).toBe(1);
    expect(newer.lines.err.join("\n")).toContain("backup format 2");
    // One entry fewer than its manifest counts: cut, though each entry is whole.
    await tinyArchive(path.join(root, "short.zip"), { entries: 6 });
    const short = recorder();
    expect(await restore([path.join(root, "short.zip")], { DATA_DIR: target }, short.output)).toBe(1);
    expect(short.lines.err.join("\n")).toContain("incomplete");

    // Whole and of our format, but its database does not open: written to a staging folder, found
    // out when opened, and DATA_DIR is empty again.
    await tinyArchive(path.join(root, "broken-db.zip"));
    const broken = recorder();
    expect(await restore([path.join(root, "broken-db.zip")], { DATA_DIR: target }, broken.output)).toBe(1);
    expect(broken.lines.err.join("\n")).toContain("database does not open");
    expect(readdirSync(target)).toEqual([]);
    // A folder the restore made itself is removed again.
    const fresh = path.join(root, "fresh");
    expect(await restore([path.join(root, "broken-db.zip")], { DATA_DIR: fresh }, recorder().output)).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe("the commands' refusals (decision 0580)", () => {
  it("with DATABASE_URL, say to use pg_dump / pg_restore and the media's tools, and do nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cbs-backup-pg-"));
    try {
      const env = { DATABASE_URL: "postgres://db.example/campus", DATA_DIR: path.join(dir, "data") };
      const made = recorder();
      expect(await backup([path.join(dir, "site.zip")], env, made.output)).toBe(1);
      expect(made.lines.err.join("\n")).toMatch(
        /pg_dump --format=custom[\s\S]*S3_BUCKET[\s\S]*DATA_DIR\/media/,
      );
      const restored = recorder();
      expect(await restore([path.join(dir, "site.zip")], env, restored.output)).toBe(1);
      expect(restored.lines.err.join("\n")).toContain("pg_restore");
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuse a wrong command line, a file inside DATA_DIR, an existing file, a folder with no database", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cbs-backup-args-"));
    try {
      const dataDir = path.join(dir, "data");
      mkdirSync(dataDir);
      expect(await backup([], { DATA_DIR: dataDir }, recorder().output)).toBe(2);
      expect(await restore(["a.zip", "b.zip"], { DATA_DIR: dataDir }, recorder().output)).toBe(2);
      const inside = recorder();
      expect(await backup([path.join(dataDir, "site.zip")], { DATA_DIR: dataDir }, inside.output)).toBe(1);
      expect(inside.lines.err.join("\n")).toContain("inside DATA_DIR");
      writeFileSync(path.join(dir, "taken.zip"), "");
      const existing = recorder();
      expect(await backup([path.join(dir, "taken.zip")], { DATA_DIR: dataDir }, existing.output)).toBe(1);
      expect(existing.lines.err.join("\n")).toContain("exists already");
      const empty = recorder();
      expect(await backup([path.join(dir, "site.zip")], { DATA_DIR: dataDir }, empty.output)).toBe(1);
      expect(empty.lines.err.join("\n")).toContain("holds no embedded database");
      const missing = recorder();
      expect(
        await restore([path.join(dir, "none.zip")], { DATA_DIR: path.join(dir, "new") }, missing.output),
      ).toBe(1);
      expect(missing.lines.err.join("\n")).toContain("does not exist");
      expect(existsSync(path.join(dir, "new"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
