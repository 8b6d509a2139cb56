import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { type AppProcess, startAppProcess } from "../../scripts/app-process";
import type { TestStudent } from "../../server/dev/test-student";
import { RESTART_PORTS } from "./support/env";
import { hydrated } from "./support/page";
import { POSTGRES_SERVER_URL, postgresAdmin, postgresReachable } from "./support/postgres";

// Decision 0211: reconnection after the server restarts delivers what was
// sent meanwhile. The reader has a conversation open on process A; A stops (its stream drops, as
// in a deploy); the other person, served by process B on the same PostgreSQL database, writes
// while A is down; A starts again on its port, the reader's browser reconnects by itself with
// Last-Event-ID (decision 0212) and the message appears without a reload. PostgreSQL only (two
// processes, decision 0290): DATABASE_URL's server, or a local one on the default port;
// without either the test is skipped and says why.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The user's last event number in the database (what a stream that has everything has seen). */
async function lastSeqOf(databaseUrl: string, userId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ last_seq: string }>(
      "select last_seq from realtime_cursors where user_id = $1",
      [userId],
    );
    return Number(rows[0]?.last_seq ?? 0);
  } finally {
    await client.end();
  }
}

async function createStudent(app: AppProcess, label: string): Promise<TestStudent> {
  const response = await fetch(app.url("/dev/test-student"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as TestStudent;
}

/** A browser context signed in as `student`, on `app`'s origin (localhost serves OU). */
async function signedIn(context: BrowserContext, app: AppProcess, student: TestStudent): Promise<Page> {
  await context.addCookies([{ ...student.cookie, url: app.url("/") }]);
  return context.newPage();
}

test("reconnection after the server restarts delivers what was sent meanwhile", async ({ browser }) => {
  test.skip(
    !(await postgresReachable()),
    `no PostgreSQL reachable at ${POSTGRES_SERVER_URL} (set DATABASE_URL)`,
  );
  test.setTimeout(240_000);
  const database = `cbs_restart_${randomBytes(4).toString("hex")}`;
  await postgresAdmin((client) => client.query(`create database ${database}`));
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-e2e-restart-"));
  const envOf = (name: string, port: number) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATABASE_URL: url.toString(),
    // One secret: a session made through A is valid on B, as behind a load balancer.
    APP_SECRET: "realtime-restart-secret-0123456789abcdef",
    DATA_DIR: path.join(dataDir, name),
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    TEST_FIXTURES: "1",
    // One process each: the process that stops is the one holding the stream.
    WORKERS: "1",
  });
  const start = (n: 0 | 1, run = 1) => {
    const name = `restart-${"AB"[n]}`;
    const port = RESTART_PORTS[n];
    return startAppProcess({
      env: envOf(name, port),
      port,
      output: path.join(root, "test-results", `e2e-${name}-${run}-app.log`),
      name: `${name} app`,
    });
  };
  const apps: AppProcess[] = [];
  const contexts: BrowserContext[] = [];
  try {
    // One at a time: the first migrates the new database.
    let a = await start(0);
    apps.push(a);
    const b = await start(1);
    apps.push(b);
    const reader = await createStudent(a, "restart-reader");
    const writer = await createStudent(a, "restart-writer");

    // The writer, served by B, starts the conversation.
    contexts.push(await browser.newContext(), await browser.newContext());
    const [writerContext, readerContext] = contexts as [BrowserContext, BrowserContext];
    const writerPage = await signedIn(writerContext, b, writer);
    await writerPage.goto(b.url(`/messages/new?to=${reader.username}`));
    await hydrated(writerPage);
    await writerPage.getByRole("textbox", { name: "Message" }).fill("Is the desk lamp still for sale?");
    await writerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(writerPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const chatPath = new URL(writerPage.url()).pathname;

    // The reader has it open on A, with the live stream running.
    const readerPage = await signedIn(readerContext, a, reader);
    const streams: { lastEventId: string | undefined }[] = [];
    readerPage.on("request", (request) => {
      if (new URL(request.url()).pathname === "/events")
        streams.push({ lastEventId: request.headers()["last-event-id"] });
    });
    await readerPage.goto(a.url(chatPath));
    await hydrated(readerPage);
    const readerThread = readerPage.getByRole("list", { name: "Messages" });
    await expect(readerThread.getByText("Is the desk lamp still for sale?")).toBeVisible();
    const html = readerPage.locator("html");
    await expect(html).toHaveAttribute("data-realtime-role", "leader");
    await expect.poll(() => streams.length).toBe(1);
    // The writer sees Seen once the reader opened it: the stream is live and the page caught up.
    await expect(writerPage.getByTestId("receipt")).toHaveText("Seen");
    // The reader's page has every event the database holds for them (the read receipts' too).
    const seqBefore = String(await lastSeqOf(url.toString(), reader.id));
    await expect(html).toHaveAttribute("data-realtime-seq", seqBefore);
    // A mark on this document: a reload (or a navigation) would lose it.
    await readerPage.evaluate(() => {
      (window as unknown as { beforeRestart: boolean }).beforeRestart = true;
    });

    // A stops: the reader's stream drops.
    expect(await a.stop()).toBe(0);
    apps.splice(apps.indexOf(a), 1);

    // Meanwhile the writer, on B, sends a message and sees it sent (Delivered: nobody read it yet).
    const meanwhile = "Sent while the reader's server was down";
    await writerPage.getByRole("textbox", { name: "Message" }).fill(meanwhile);
    await writerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(writerPage.getByRole("list", { name: "Messages" }).getByText(meanwhile)).toBeVisible();
    await expect(writerPage.getByTestId("receipt")).toHaveText("Delivered");
    await expect(readerThread.getByText(meanwhile)).toHaveCount(0);

    // A starts again on its port; the reader's browser reconnects by itself (its back-off) and
    // asks for what came after the last event it had.
    a = await start(0, 2);
    apps.push(a);
    await expect(readerThread.getByText(meanwhile)).toBeVisible({ timeout: 90_000 });
    expect(
      await readerPage.evaluate(() => (window as unknown as { beforeRestart?: boolean }).beforeRestart),
    ).toBe(true);
    const resumed = streams.slice(1);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((stream) => stream.lastEventId === seqBefore)).toBe(true);
    await expect(html).not.toHaveAttribute("data-realtime-seq", seqBefore);
    // And the reader having it open shows as Seen to the writer, across the two processes.
    await expect(writerPage.getByTestId("receipt")).toHaveText("Seen");
  } finally {
    for (const context of contexts) await context.close();
    for (const app of apps) await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await postgresAdmin((client) => client.query(`drop database if exists ${database} with (force)`));
  }
});
