import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../../tests/support/factories";
import { openSse, type SseStream } from "../../../tests/support/sse-client";
import { createTestContext, type TestContext } from "../../../tests/support/test-context";
import { publishUserEvent } from "../../realtime/events";
import { EVENT_STREAM_PATH, eventStreamHandler, startingSeq } from "./event-stream";

// Decision 0211: GET /events as a browser's EventSource sees it.

let t: TestContext;
let server: ReturnType<express.Express["listen"]>;
let base = "";
const open: SseStream[] = [];

beforeAll(async () => {
  t = await createTestContext();
  const app = express();
  // A short heartbeat, so the test sees one without waiting 25 s (the interval is not what is tested).
  app.get(EVENT_STREAM_PATH, eventStreamHandler({ ctx: t.ctx, auth: t.auth, heartbeatMs: 50 }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

function stream(query = "", options: { cookie?: string; lastEventId?: string } = {}): SseStream {
  const opened = openSse(`${base}${EVENT_STREAM_PATH}${query}`, options);
  open.push(opened);
  return opened;
}

const seqs = (s: SseStream) => s.frames.filter((f) => f.event !== "reset").map((f) => Number(f.id));

describe("GET /events", () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await createTestMember(t);
  });

  it("refuses a visitor, and a cookie that is no session, with 401", async () => {
    for (const cookie of [undefined, "better-auth.session_token=forged.value"]) {
      const answer = await stream("", { cookie }).opened;
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ message: "Sign in to receive live updates." });
    }
  });

  it("streams the signed-in viewer's events with id = sequence, event = type and JSON data", async () => {
    const live = stream("?after=0", { cookie: member.cookie });
    const answer = await live.opened;
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe("text/event-stream; charset=utf-8");
    await publishUserEvent(t.ctx.db, member.id, { type: "chat", data: { chatId: "c1" } });
    await live.until((frames) => frames.length === 1);
    expect(live.frames).toEqual([{ id: "1", event: "chat", data: '{"chatId":"c1"}' }]);
    live.close();
  });

  it("replays what came after Last-Event-ID (which wins over ?after=), then goes on live", async () => {
    await publishUserEvent(t.ctx.db, member.id, { type: "chat", data: { n: 2 } });
    await publishUserEvent(t.ctx.db, member.id, { type: "badge", data: { n: 3 } });
    const resumed = stream("?after=0", { cookie: member.cookie, lastEventId: "1" });
    await resumed.until((frames) => frames.length === 2);
    await publishUserEvent(t.ctx.db, member.id, { type: "chat", data: { n: 4 } });
    await resumed.until((frames) => frames.length === 3);
    expect(resumed.frames).toEqual([
      { id: "2", event: "chat", data: '{"n":2}' },
      { id: "3", event: "badge", data: '{"n":3}' },
      { id: "4", event: "chat", data: '{"n":4}' },
    ]);
    resumed.close();
    // The page's number, on a first connect.
    const fromPage = stream("?after=3", { cookie: member.cookie });
    await fromPage.until((frames) => frames.length === 1);
    expect(seqs(fromPage)).toEqual([4]);
    fromPage.close();
  });

  it("sends 'reset' with the current number to a stream from another log", async () => {
    const behind = stream("", { cookie: member.cookie, lastEventId: "9999" });
    await behind.until((frames) => frames.length === 1);
    expect(behind.frames).toEqual([{ id: "4", event: "reset", data: "{}" }]);
    behind.close();
  });

  it("sends a heartbeat comment while nothing happens", async () => {
    const quiet = stream("", { cookie: member.cookie, lastEventId: "4" });
    await quiet.until((_frames, comments) => comments.includes("heartbeat"));
    expect(quiet.frames).toEqual([]);
    quiet.close();
  });

  it("answers 429 past the streams one user may hold, and frees them when they close", async () => {
    const other = await createTestMember(t);
    const limit = t.ctx.config.realtime.maxStreamsPerUser;
    const held: SseStream[] = [];
    for (let n = 0; n < limit; n++) {
      const s = stream("", { cookie: other.cookie });
      await s.until((_frames, comments) => comments.includes("heartbeat"));
      held.push(s);
    }
    const refused = await stream("", { cookie: other.cookie }).opened;
    expect(refused.status).toBe(429);
    // Someone else is not affected.
    expect((await stream("", { cookie: member.cookie }).opened).status).toBe(200);
    for (const s of held) s.close();
    for (;;) {
      if (t.ctx.realtime.streamCount(other.id) === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await stream("", { cookie: other.cookie }).opened).status).toBe(200);
  });

  it("ends its streams when the hub shuts down", async () => {
    const s = stream("", { cookie: member.cookie, lastEventId: "4" });
    await s.until((_frames, comments) => comments.includes("heartbeat"));
    await t.ctx.realtime.close();
    await s.ended;
    expect(s.frames).toEqual([]);
  });
});

describe("startingSeq", () => {
  it("takes Last-Event-ID first, then ?after=, and ignores anything that is not a whole number", () => {
    expect(startingSeq("7", "3")).toBe(7);
    expect(startingSeq(undefined, "3")).toBe(3);
    expect(startingSeq("x", "3")).toBe(3);
    expect(startingSeq("-1", ["5"])).toBe(0);
    expect(startingSeq("1e3", undefined)).toBe(0);
    expect(startingSeq(undefined, undefined)).toBe(0);
  });
});
