import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { createTestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { loadConfig } from "../config";
import { userEventsAfter } from "../realtime/events";
import { mountRealtimeFixture, REALTIME_EVENT_PATH } from "./realtime-event";

// Decision 0215: the realtime fixture exists only outside production with TEST_FIXTURES=1.

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const t of contexts) await t.close();
});

async function post(env: Record<string, string>, signedIn: boolean) {
  const t = await createTestContext(
    loadConfig({ APP_SECRET: "test-secret-test-secret-test-secret", DATA_DIR: ".tmp/test-data", ...env }),
  );
  contexts.push(t);
  const member = await createTestMember(t);
  const app = express();
  mountRealtimeFixture(app, { ctx: t.ctx, auth: t.auth });
  app.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${REALTIME_EVENT_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signedIn ? { cookie: member.cookie } : {}) },
      body: JSON.stringify({ type: "chat", data: { chatId: "c1" } }),
    });
    return { status: response.status, events: await userEventsAfter(t.ctx.db, member.id, 0) };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("POST /dev/realtime-event", () => {
  it("is absent in production, even with TEST_FIXTURES=1, and without the opt-in", async () => {
    expect((await post({ NODE_ENV: "production", TEST_FIXTURES: "1" }, true)).status).toBe(404);
    expect((await post({}, true)).status).toBe(404);
  });

  it("publishes to the signed-in viewer's own stream, and refuses a visitor", async () => {
    expect(await post({ TEST_FIXTURES: "1" }, true)).toEqual({
      status: 201,
      events: [{ seq: 1, type: "chat", data: { chatId: "c1" } }],
    });
    expect((await post({ TEST_FIXTURES: "1" }, false)).status).toBe(401);
  });
});
