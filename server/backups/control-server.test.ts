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
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestClock } from "../../tests/support/test-context";
import { pgliteExtensions, wrapPglite } from "../db/client";
import { createLogger } from "../logger";
import { ControlRefusedError, callControl, readControlFile } from "./control-client";
import { type BackupControl, CONTROL_FILE, type ControlFile, startBackupControl } from "./control-server";
import { snapshotRoot } from "./snapshot";

// Decision 0580: the backup control answers only the command that can read DATA_DIR, never a
// browser or a forged Host; a snapshot waits for open transactions and holds them whole.

const embedded = !process.env.DATABASE_URL;

/** A raw request, with exactly the headers given. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: options.path ?? "/snapshot",
        method: options.method ?? "POST",
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    for (const [name, value] of Object.entries(options.headers ?? {})) req.setHeader(name, value);
    req.on("error", reject);
    req.end(options.body ?? "{}");
  });
}

describe.skipIf(!embedded)("the backup control (decision 0580)", () => {
  let dataDir: string;
  let client: PGlite;
  let control: BackupControl;
  let file: ControlFile;
  const clock = createTestClock();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "cbs-backup-control-"));
    mkdirSync(path.join(dataDir, "db"));
    mkdirSync(path.join(dataDir, "media", "ab"), { recursive: true });
    writeFileSync(path.join(dataDir, "media", "ab", "photo.webp"), "photo bytes");
    client = await PGlite.create(path.join(dataDir, "db"), {
      loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
      extensions: pgliteExtensions,
    });
    control = await startBackupControl({
      database: wrapPglite(client),
      dataDir,
      clock,
      log: createLogger("silent"),
      mediaInBucket: false,
    });
    const read = await readControlFile(dataDir);
    if (!read) throw new Error("no control file");
    file = read;
  });

  afterAll(async () => {
    await control?.close();
    await client?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes its address and secret for the owner only, and answers on loopback", () => {
    expect(statSync(path.join(dataDir, CONTROL_FILE)).mode & 0o777).toBe(0o600);
    expect(file).toMatchObject({ pid: process.pid, port: control.port });
    expect(file.secret).toMatch(/^[a-f0-9]{64}$/);
  });

  it("refuses a missing or wrong secret, anything a browser sends, a forged Host, other methods", async () => {
    const good = {
      host: `127.0.0.1:${file.port}`,
      authorization: `Bearer ${file.secret}`,
      "content-type": "application/json",
    };
    const { authorization: _secret, ...withoutSecret } = good;
    expect(await send(file.port, { headers: withoutSecret })).toBe(403);
    expect(await send(file.port, { headers: { ...good, authorization: `Bearer ${"0".repeat(64)}` } })).toBe(
      403,
    );
    expect(await send(file.port, { headers: { ...good, authorization: file.secret } })).toBe(403);
    expect(await send(file.port, { headers: { ...good, origin: "http://localhost:3000" } })).toBe(403);
    expect(await send(file.port, { headers: { ...good, "sec-fetch-site": "same-origin" } })).toBe(403);
    expect(await send(file.port, { headers: { ...good, "sec-fetch-mode": "cors" } })).toBe(403);
    expect(await send(file.port, { headers: { ...good, host: `localhost:${file.port}` } })).toBe(403);
    expect(await send(file.port, { headers: { ...good, host: "evil.example" } })).toBe(403);
    // A form a page could post: not JSON.
    expect(await send(file.port, { headers: { ...good, "content-type": "text/plain" } })).toBe(405);
    expect(await send(file.port, { method: "GET", headers: good })).toBe(405);
    expect(await send(file.port, { method: "OPTIONS", headers: good })).toBe(405);
    expect(await send(file.port, { path: "/other", headers: good })).toBe(404);
    // Nothing was taken.
    expect(existsSync(snapshotRoot(dataDir))).toBe(false);
  });

  it("records and discards only snapshots it took", async () => {
    const unknown = "a".repeat(32);
    await expect(callControl(file, "/record", { id: unknown, file: "x.zip", bytes: 1 })).rejects.toThrow(
      ControlRefusedError,
    );
    await expect(callControl(file, "/discard", { id: "../../db" })).rejects.toMatchObject({ status: 404 });
  });

  it("waits for an open transaction, copies it whole with the media, one snapshot at a time", async () => {
    let commit = () => {};
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inserted = () => {};
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into backups (file, bytes, created_at) values ('in-flight.zip', 1, now())");
      inserted();
      await held;
      await tx.query("insert into backups (file, bytes, created_at) values ('in-flight-2.zip', 2, now())");
    });
    await insertedYet;
    let answered = false;
    const snapshot = callControl(file, "/snapshot", {}).finally(() => {
      answered = true;
    });
    // However long the transaction stays open, the snapshot waits for it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    commit();
    await transaction;
    const { id } = (await snapshot) as { id: string };
    await expect(callControl(file, "/snapshot", {})).rejects.toMatchObject({ status: 409 });

    const staged = path.join(snapshotRoot(dataDir), id, "data");
    expect(readFileSync(path.join(staged, "media", "ab", "photo.webp"), "utf8")).toBe("photo bytes");
    // A hard link: the same file, no second copy of the bytes.
    expect(statSync(path.join(staged, "media", "ab", "photo.webp")).ino).toBe(
      statSync(path.join(dataDir, "media", "ab", "photo.webp")).ino,
    );
    expect(readdirSync(staged).sort()).toEqual(["db", "media"]);
    const copy = await PGlite.create(path.join(staged, "db"), { extensions: pgliteExtensions });
    try {
      const rows = await copy.query<{ file: string }>("select file from backups order by file");
      expect(rows.rows.map((row) => row.file)).toEqual(["in-flight-2.zip", "in-flight.zip"]);
    } finally {
      await copy.close();
    }

    clock.advance(60_000);
    await callControl(file, "/record", { id, file: "site.zip", bytes: 1234 });
    expect(readdirSync(snapshotRoot(dataDir))).toEqual([]);
    const recorded = await client.query<{ file: string; bytes: number; created_at: Date }>(
      "select file, bytes::int as bytes, created_at from backups where file = 'site.zip'",
    );
    expect(recorded.rows).toEqual([{ file: "site.zip", bytes: 1234, created_at: clock.now() }]);
  });
});
