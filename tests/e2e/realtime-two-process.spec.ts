import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { type AppProcess, startAppProcess } from "../../scripts/app-process";
import type { TestStudent } from "../../server/dev/test-student";
import { openSse } from "../support/sse-client";
import { REALTIME_PORTS } from "./support/env";

// Issue 13 §2 and §'Tests that must exist' (decision 0213): fan-out across app processes. Two
// processes of the built app share one PostgreSQL database; an event committed through process A
// reaches a stream held by process B through LISTEN/NOTIFY. PGlite is one process by nature, so
// this needs PostgreSQL: DATABASE_URL's server (as the PostgreSQL variant of the unit tests), or
// a local one on the default port. Without either the test is skipped, and says why.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

test("an event committed through process A reaches a stream held by process B", async () => {
  test.skip(!(await reachable(serverUrl)), `no PostgreSQL reachable at ${serverUrl} (set DATABASE_URL)`);
  test.setTimeout(180_000);
  const database = `cbs_realtime_${randomBytes(4).toString("hex")}`;
  await admin((client) => client.query(`create database ${database}`));
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-realtime-"));
  const apps: AppProcess[] = [];
  try {
    for (const [n, port] of REALTIME_PORTS.entries()) {
      const name = `realtime-${"AB"[n]}`;
      apps.push(
        await startAppProcess({
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            PORT: String(port),
            DATABASE_URL: url.toString(),
            // One secret: a session made through A is valid on B, as behind a load balancer.
            APP_SECRET: "realtime-two-process-secret-0123456789",
            DATA_DIR: path.join(dataDir, name),
            SEED_DEMO: "0",
            LOG_LEVEL: "warn",
            TEST_FIXTURES: "1",
          },
          port,
          output: path.join(root, "test-results", `e2e-${name}-app.log`),
          name: `${name} app`,
        }),
      );
    }
    const [a, b] = apps as [AppProcess, AppProcess];
    const created = await fetch(a.url("/dev/test-student"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ label: "two-process", profile: false }),
    });
    expect(created.status).toBe(201);
    const student = (await created.json()) as TestStudent;
    const cookie = `${student.cookie.name}=${student.cookie.value}`;

    const stream = openSse(b.url("/events?after=0"), { cookie });
    expect((await stream.opened).status).toBe(200);
    const published = await fetch(a.url("/dev/realtime-event"), {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ type: "chat", data: { chatId: "c1" } }),
    });
    expect(published.status).toBe(201);
    await stream.until((frames) => frames.length === 1);
    expect(stream.frames).toEqual([{ id: "1", event: "chat", data: '{"chatId":"c1"}' }]);
    stream.close();
  } finally {
    for (const app of apps) await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await admin((client) => client.query(`drop database if exists ${database} with (force)`));
  }
});
