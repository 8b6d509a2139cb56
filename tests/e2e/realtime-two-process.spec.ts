import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { type AppProcess, startAppProcess } from "../../scripts/app-process";
import type { TestStudent } from "../../server/dev/test-student";
import { plainTextToRichText } from "../../server/posts/rich-text.shared";
import { openSse } from "../support/sse-client";
import { REALTIME_PORTS } from "./support/env";
import { POSTGRES_SERVER_URL, postgresAdmin, postgresReachable } from "./support/postgres";

// Decision 0213: fan-out across app processes. Two
// processes of the built app share one PostgreSQL database; an event committed through process A
// reaches a stream held by process B through LISTEN/NOTIFY, and (decision 0360) a
// post written through A clears the visitors' page cache of B, over the same listening connection. PGlite is one process by nature, so
// this needs PostgreSQL: DATABASE_URL's server (as the PostgreSQL variant of the unit tests), or
// a local one on the default port. Without either the test is skipped, and says why.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
test.describe.configure({ mode: "serial" });

let database = "";
let dataDir = "";
const apps: AppProcess[] = [];

test.beforeAll(async () => {
  if (!(await postgresReachable())) return;
  test.setTimeout(180_000);
  database = `cbs_realtime_${randomBytes(4).toString("hex")}`;
  await postgresAdmin((client) => client.query(`create database ${database}`));
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${database}`;
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-realtime-"));
  for (const [n, port] of REALTIME_PORTS.entries()) {
    const name = `realtime-${"AB"[n]}`;
    apps.push(
      await startAppProcess({
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          DATABASE_URL: url.toString(),
          // One process per app: the test is about two processes, not two clusters.
          WORKERS: "1",
          // One secret: a session made through A is valid on B, as behind a load balancer.
          APP_SECRET: "realtime-two-process-secret-0123456789",
          DATA_DIR: path.join(dataDir, name),
          SEED_DEMO: "0",
          LOG_LEVEL: "warn",
          TEST_FIXTURES: "1",
          // Visitors read the feed, from a cache that would outlive the test unless told.
          PUBLIC_CAMPUSES: "all",
          PAGE_CACHE_SECONDS: "600",
        },
        port,
        output: path.join(root, "test-results", `e2e-${name}-app.log`),
        name: `${name} app`,
      }),
    );
  }
});

test.afterAll(async () => {
  for (const app of apps) await app.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (database)
    await postgresAdmin((client) => client.query(`drop database if exists ${database} with (force)`));
});

test.beforeEach(() => {
  test.skip(apps.length < 2, `no PostgreSQL reachable at ${POSTGRES_SERVER_URL} (set DATABASE_URL)`);
});

async function createStudent(app: AppProcess, label: string, profile: boolean): Promise<TestStudent> {
  const created = await fetch(app.url("/dev/test-student"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label, profile }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as TestStudent;
}

test("an event committed through process A reaches a stream held by process B", async () => {
  const [a, b] = apps as [AppProcess, AppProcess];
  const student = await createStudent(a, "two-process", false);
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
});

test("a post written through process A is on a visitor's feed from process B, which had the feed cached", async () => {
  const [a, b] = apps as [AppProcess, AppProcess];
  const feed = b.url(`/home?visit=${Date.now()}`);
  const visit = async () => {
    const response = await fetch(feed);
    expect(response.status).toBe(200);
    return { state: response.headers.get("x-page-cache"), html: await response.text() };
  };
  await visit();
  const cached = await visit();
  expect(cached.state).toBe("hit");

  const student = await createStudent(a, "cache-writer", true);
  const text = `Posted through A ${randomBytes(4).toString("hex")}`;
  expect(cached.html).not.toContain(text);
  // The composer's form as a browser without JavaScript sends it (spec 2 §4).
  const form = new FormData();
  form.set("text", JSON.stringify(plainTextToRichText(text)));
  const posted = await fetch(a.url("/create/post"), {
    method: "POST",
    headers: { cookie: `${student.cookie.name}=${student.cookie.value}` },
    body: form,
    redirect: "manual",
  });
  expect(posted.status).toBe(302);

  // The announcement follows the answer; B drops the page when it hears it.
  await expect.poll(async () => (await visit()).html.includes(text), { timeout: 10_000 }).toBe(true);
  // And caches the new feed again.
  expect((await visit()).state).toBe("hit");
});
