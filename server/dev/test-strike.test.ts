import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { loadConfig } from "../config";
import { moderationLog, posts, strikes, user } from "../db/schema";
import { mountStrikeFixture, TEST_STRIKE_PATH } from "./test-strike";

// Decision 0548: the strike fixture exists only outside production with TEST_FIXTURES=1.

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const t of contexts) await t.close();
});

async function post(env: Record<string, string>, signedIn: boolean, body: (postId: string) => unknown) {
  const t = await createTestContext(
    loadConfig({ APP_SECRET: "test-secret-test-secret-test-secret", DATA_DIR: ".tmp/test-data", ...env }),
  );
  contexts.push(t);
  const member = await createTestMember(t);
  const listing = await createTestPost(t, member.viewer, { text: "Mini fridge" });
  const app = express();
  mountStrikeFixture(app, { ctx: t.ctx, auth: t.auth });
  app.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${TEST_STRIKE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signedIn ? { cookie: member.cookie } : {}) },
      body: JSON.stringify(body(listing.id)),
    });
    return { status: response.status, t, member, listingId: listing.id };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("POST /dev/test-strike", () => {
  it("is absent in production, even with TEST_FIXTURES=1, and without the opt-in", async () => {
    expect((await post({ NODE_ENV: "production", TEST_FIXTURES: "1" }, true, () => ({}))).status).toBe(404);
    expect((await post({}, true, () => ({}))).status).toBe(404);
  });

  it("suspends the signed-in student over their own post as a moderator's action would, and refuses a visitor", async () => {
    const { status, t, member, listingId } = await post({ TEST_FIXTURES: "1" }, true, (postId) => ({
      action: "suspend",
      postId,
      days: 3,
    }));
    expect(status).toBe(201);
    const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.userId, member.id));
    expect(strike).toMatchObject({ action: "suspend", targetKind: "post", targetId: listingId });
    const [row] = await t.ctx.db.select().from(user).where(eq(user.id, member.id));
    expect(row?.suspendedUntil?.getTime()).toBe(t.clock.now().getTime() + 3 * 24 * 60 * 60 * 1000);
    const [removed] = await t.ctx.db.select().from(posts).where(eq(posts.id, listingId));
    expect(removed?.moderationState).toBe("removed");
    const log = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.targetUserId, member.id));
    expect(log).toMatchObject([{ action: "suspend", details: { days: 3 } }]);
    expect((await post({ TEST_FIXTURES: "1" }, false, () => ({}))).status).toBe(401);
  });
});
