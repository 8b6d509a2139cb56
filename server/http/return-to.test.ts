import { request as httpRequest } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as postRoute from "../../app/routes/posts/post";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts } from "../db/schema";

// docs/product/outages-and-errors.md: a plain-HTML form's returnTo is where the post page's action redirects; a tab
// ('/\t/evil.example' is '//evil.example' in a browser) or CR/LF must not make it another site.
// docs/product/outages-and-errors.md: a returnTo that is not a path of this site is a 400 that changed nothing (a raw
// ideographic space used to save the post and then fail the redirect with a 500).

let t: TestContext;
let server: RouteServer;
let member: TestMember;
let postId = "";

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(new Date());
  member = await createTestMember(t);
  postId = (await createTestPost(t, member.viewer)).id;
  server = await startRouteServer(t, [{ id: "routes/posts/post", path: "post/:id", module: postRoute }]);
});

afterAll(async () => {
  await server.close();
  await t.close();
});

/** A plain form POST as a browser without JavaScript sends it; the status and Location. */
function post(path: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    const req = httpRequest(
      `${server.base}${path}`,
      {
        method: "POST",
        headers: {
          host: "localhost",
          cookie: member.cookie,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("returnTo of the post page's forms", () => {
  it("goes back to a page of this site", async () => {
    const answer = await post(`/post/${postId}`, { intent: "toggle-save", returnTo: "/home?category=books" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/home?category=books");
  });

  it("never redirects to another site, and refuses anything but a path of this site before saving", async () => {
    const saveCount = async () =>
      (await t.ctx.db.select({ count: posts.saveCount }).from(posts).where(eq(posts.id, postId)))[0]?.count;
    const before = await saveCount();
    for (const returnTo of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/home\r\nSet-Cookie: a=b",
      "/home\u0000",
      "//evil.example",
      "/\\evil.example",
      "/%2F%2Fevil.example",
      "https://evil.example/",
      "/\u3000/x",
      "/%E3%80%80/x\u3000",
      "/home page",
      "/caf\u00e9",
    ]) {
      const answer = await post(`/post/${postId}`, { intent: "toggle-save", returnTo });
      expect(answer.status, JSON.stringify(returnTo)).toBe(400);
      expect(answer.location).toBeUndefined();
    }
    expect(await saveCount()).toBe(before);
  });

  it("keeps a percent-encoded path, non-ASCII once decoded, as browsers send it", async () => {
    const answer = await post(`/post/${postId}`, { intent: "toggle-save", returnTo: "/%E3%80%80/x" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/%E3%80%80/x");
  });
});
