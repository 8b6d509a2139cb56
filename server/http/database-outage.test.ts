import type { AddressInfo } from "node:net";
import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import express from "express";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as appEntry from "../../app/entry.server";
import * as homeRoute from "../../app/routes/feed/home";
import * as postRoute from "../../app/routes/posts/post";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { AppContext } from "../context";
import { type DatabaseHandle, wrapPool } from "../db/client";
import { isDatabaseUnavailable, isUniqueViolation } from "../db/errors";
import { posts } from "../db/schema";
import { BACK_SOON, BACK_SOON_HEADERS, describeFailure } from "../errors.shared";
import { encodeCursor } from "../lists/cursor";
import { LIST_PAGES_ROUTE, listPagesHandler } from "./endpoints/list-pages";

// Decision 0470: while the database was down, writes answered 500. Every answer to a
// request that found it unreachable is a 503 with Retry-After and says the site will be back;
// nothing changes. 'Down' here is a real node-postgres pool on a port where nothing listens.

let t: TestContext;
let member: TestMember;
let postId = "";
let down: DatabaseHandle;
let downCtx: AppContext;
let server: RouteServer;
let lists: { base: string; close(): void };

/** A local port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(new Date());
  member = await createTestMember(t);
  postId = (await createTestPost(t, member.viewer)).id;
  down = wrapPool(
    new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/down`, max: 2 }),
  );
  downCtx = { ...t.ctx, db: down.db, listReadDb: undefined };
  server = await startRouteServer(
    t,
    [
      { id: "routes/feed/home", path: "home", module: homeRoute },
      { id: "routes/posts/post", path: "post/:id", module: postRoute },
    ],
    { ctx: downCtx, appEntry },
  );
  const app = express();
  app.get(LIST_PAGES_ROUTE, listPagesHandler({ ctx: downCtx, auth: t.auth, admitsFeed: async () => true }));
  const listening = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => listening.once("listening", () => resolve()));
  lists = {
    base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    close: () => listening.close(),
  };
});

afterAll(async () => {
  lists.close();
  await server.close();
  await down.close();
  await t.close();
});

async function saveCount(): Promise<number | undefined> {
  const [row] = await t.ctx.db.select({ count: posts.saveCount }).from(posts).where(eq(posts.id, postId));
  return row?.count;
}

function expectBackSoon(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe(BACK_SOON_HEADERS["Retry-After"]);
}

describe("the database being unreachable", () => {
  it("is told apart from a query's own failure, whichever driver reported it", async () => {
    const refused = await down.db.execute(sql`select 1`).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const embedded = new PGlite();
    await embedded.query("select 1");
    await embedded.close();
    expect(isDatabaseUnavailable(await embedded.query("select 1").catch((error: unknown) => error))).toBe(
      true,
    );

    // A query PostgreSQL refuses is the query's fault: still a 500 (or the domain's own answer).
    const refusedQuery = await t.ctx.db.execute(sql`select * from no_such_table`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(refusedQuery)).toBe(false);
    const duplicate = await t.ctx.db
      .execute(sql`insert into campuses select * from campuses limit 1`)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(duplicate, "campuses_pkey") || duplicate instanceof Error).toBe(true);
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
  });

  it("is a 503 with Retry-After and the site's message in every action's answer (describeFailure)", async () => {
    const error = await down.db.execute(sql`select 1`).catch((e: unknown) => e);
    expect(describeFailure(error, "Something went wrong.")).toMatchObject({
      status: 503,
      message: BACK_SOON.message,
      headers: BACK_SOON_HEADERS,
    });
  });

  it("answers a page with 503, Retry-After and a page that says the site will be back", async () => {
    const response = await fetch(`${server.base}/home`, {
      headers: { host: "localhost", accept: "text/html" },
    });
    expectBackSoon(response);
    expect(response.headers.get("content-type")).toContain("text/html");
    const page = await response.text();
    expect(page).toContain(BACK_SOON.title);
    expect(page).toContain(BACK_SOON.message);
    expect(page).not.toMatch(/ECONNREFUSED|at .*\.(ts|js):\d+/);
  });

  it("answers a write, a plain form or the app's fetcher, with 503 and Retry-After; nothing is saved", async () => {
    const before = await saveCount();
    const form = new URLSearchParams({ intent: "toggle-save", returnTo: "/home" });
    for (const path of [`/post/${postId}`, `/post/${postId}.data`]) {
      const response = await fetch(`${server.base}${path}`, {
        method: "POST",
        headers: {
          host: "localhost",
          cookie: member.cookie,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
        redirect: "manual",
      });
      expectBackSoon(response);
      if (!path.endsWith(".data")) expect(await response.text()).toContain(BACK_SOON.message);
    }
    expect(await saveCount()).toBe(before);
  });

  it("answers the lists' JSON with 503, Retry-After and the message", async () => {
    const cursor = encodeCursor({ time: "2026-03-02T15:00:00.123456Z", id: postId });
    const response = await fetch(`${lists.base}/api/lists/feed?cursor=${cursor}`, {
      headers: { host: "localhost" },
    });
    expectBackSoon(response);
    expect(await response.json()).toEqual({ message: BACK_SOON.message });
  });
});
