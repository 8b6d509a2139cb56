import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../../tests/support/factories";
import { createTestContext, type TestContext } from "../../../tests/support/test-context";
import { issueAnalyticsToken } from "../../ads/analytics";
import { boostPost } from "../../ads/boost";
import { payTestCheckout } from "../../ads/fulfilment";
import { ads, loginThrottle, postAnalytics } from "../../db/schema";
import { limitRequestBodies } from "../middleware/body-limit";
import { refuseNonFormWrites } from "../middleware/form-bodies";
import { ANALYTICS_PATH, mountAnalytics } from "./analytics-beacon";
import { mountPaymentWebhook } from "./payment-webhook";

// Decision 0270: the webhook reads the raw body ahead of the app's body rules (here the real
// ones: the body limit and the form-only guard, which would refuse Stripe's JSON), checks the
// signature over those exact bytes, and fulfils once.

let t: TestContext;
let base: string;
let close: () => Promise<void>;

beforeEach(async () => {
  t = await createTestContext();
  const app = express();
  mountPaymentWebhook(app, t.ctx);
  app.use(limitRequestBodies());
  mountAnalytics(app, { ctx: t.ctx, auth: t.auth });
  app.use(refuseNonFormWrites());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterEach(async () => {
  await close();
  await t.close();
});

describe(`POST ${ANALYTICS_PATH} (decision 0467)`, () => {
  /** A POST as a script sends it: its own Host header and cookies, nothing else. */
  function post(
    form: Record<string, string>,
    options: { host: string; cookie?: string },
  ): Promise<{ status: number; setCookie: string | null }> {
    return new Promise((resolve, reject) => {
      const body = new URLSearchParams(form).toString();
      const request = http.request(
        `${base}${ANALYTICS_PATH}`,
        {
          method: "POST",
          headers: {
            host: options.host,
            "content-type": "application/x-www-form-urlencoded",
            ...(options.cookie ? { cookie: options.cookie } : {}),
          },
        },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              setCookie: response.headers["set-cookie"]?.[0] ?? null,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  async function runningAd() {
    const seller = await createTestMember(t);
    const post = await createTestPost(t, seller.viewer);
    const { adId } = await boostPost(
      t.ctx,
      seller.viewer,
      { postId: post.id, campusId: "ou" },
      { goal: "message", days: "2" },
      "http://ou.localhost:3000",
    );
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    await payTestCheckout(t.ctx, seller.viewer, {
      sessionId: ad?.checkoutSessionId ?? "",
      card: "4242 4242 4242 4242",
    });
    return post.id;
  }

  async function views(postId: string): Promise<number> {
    const [row] = await t.ctx.db.select().from(postAnalytics).where(eq(postAnalytics.postId, postId));
    return row?.views ?? 0;
  }

  it("200 cookie-less views count nothing; another campus's host is refused; a reader counts once", async () => {
    const postId = await runningAd();
    const token = issueAnalyticsToken(t.ctx, { postId, campusId: "ou" });
    const statuses = new Set<number>();
    for (let i = 0; i < 200; i++) {
      statuses.add((await post({ postId, action: "view", token }, { host: "ou.localhost" })).status);
    }
    // Decision 0467: without a token at all, too.
    for (let i = 0; i < 20; i++) {
      statuses.add((await post({ postId, action: "view" }, { host: "ou.localhost" })).status);
    }
    expect(await views(postId)).toBe(0);
    expect([...statuses].sort()).toEqual([202, 400, 429]);

    // Another campus's host, even with a session and the post's token.
    const fresh = await post({ postId, action: "view", token }, { host: "ou.localhost", cookie: "" });
    const stanford = await post({ postId, action: "view", token }, { host: "stanford.localhost" });
    expect(stanford.status).toBe(403);
    expect(fresh.status).toBe(429); // this address had its sessions for the hour

    // A reader from another address: a session first, then one view however often it is sent.
    await t.ctx.db.delete(loginThrottle);
    const first = await post({ postId, action: "view", token }, { host: "ou.localhost" });
    expect(first.status).toBe(202);
    const cookie = (first.setCookie ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^cbs_as=/);
    for (let i = 0; i < 5; i++) {
      expect((await post({ postId, action: "view", token }, { host: "ou.localhost", cookie })).status).toBe(
        204,
      );
    }
    expect(await views(postId)).toBe(1);
  });

  it("counts a signed-in reader once, whatever second session cookie each request names", async () => {
    const postId = await runningAd();
    const token = issueAnalyticsToken(t.ctx, { postId, campusId: "ou" });
    const reader = await createTestMember(t);
    const session = reader.cookie.split("; ").find((part) => part.includes("session_token")) ?? "";
    const name = session.slice(0, session.indexOf("="));
    expect(name).toContain("session_token");
    for (let i = 0; i < 5; i++) {
      // Two session cookies of one name: the session check reads the first, a last-wins parser the other.
      const cookie = `${session}; ${name}=forged-${i}`;
      expect((await post({ postId, action: "view", token }, { host: "ou.localhost", cookie })).status).toBe(
        204,
      );
    }
    expect(await views(postId)).toBe(1);
  });
});
