import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as forgotPasswordRoute from "../../app/routes/auth/forgot-password";
import * as loginRoute from "../../app/routes/auth/login";
import { createTestUser, lastMailTo } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { RESET_MAIL_KIND } from "../accounts/accounts";
import { MAGIC_LINK_MAIL_KIND } from "../accounts/magic-link";

// Decision 0110: a sign-in link or password reset asked for with a forged Host header was mailed
// as http://evil.example/…?token=…, so whoever held that host signed in as the student. The
// requests go over HTTP as an attacker's client sends them, through @react-router/express.

let t: TestContext;
let server: RouteServer;

beforeAll(async () => {
  t = await createTestContext({ port: 4230 });
  t.clock.set(new Date());
  server = await startRouteServer(t, [
    { id: "routes/auth/login", path: "login", module: loginRoute },
    { id: "routes/auth/forgot-password", path: "forgotpassword", module: forgotPasswordRoute },
  ]);
});

afterAll(async () => {
  await server.close();
  await t.close();
});

/** A form POST with the Host header of the caller's choice (fetch would not send a forged one). */
function postForm(path: string, host: string, fields: Record<string, string>): Promise<number> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.base}${path}`,
      {
        method: "POST",
        headers: {
          host,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The links in a mail's text and HTML. */
function linksIn(mail: { text: string; html: string }): string[] {
  return [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0]);
}

describe("links in mail never carry a forged Host (decision 0110)", () => {
  it("POST /login intent=send-link with Host: evil.example mails a link to the real site", async () => {
    const student = await createTestUser(t);
    expect(await postForm("/login", "evil.example", { intent: "send-link", email: student.email })).toBe(302);
    const mail = await lastMailTo(t, student.email, MAGIC_LINK_MAIL_KIND);
    expect(`${mail.text}${mail.html}`).not.toContain("evil.example");
    const links = linksIn(mail).filter((link) => link.includes("token="));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(new URL(link).origin).toBe("http://localhost:4230");
  });

  it("POST /forgotpassword with Host: evil.example mails a reset link to the real site", async () => {
    const student = await createTestUser(t);
    expect(await postForm("/forgotpassword", "evil.example:4230", { email: student.email })).toBe(200);
    const mail = await lastMailTo(t, student.email, RESET_MAIL_KIND);
    expect(`${mail.text}${mail.html}`).not.toContain("evil.example");
    const links = linksIn(mail).filter((link) => link.includes("/reset-password?token="));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(new URL(link).origin).toBe("http://localhost:4230");
  });

  it("keeps a student on the campus host they asked from", async () => {
    const student = await createTestUser(t, { campusId: "ut" });
    expect(await postForm("/login", "ut.localhost:4230", { intent: "send-link", email: student.email })).toBe(
      302,
    );
    const mail = await lastMailTo(t, student.email, MAGIC_LINK_MAIL_KIND);
    const [link] = linksIn(mail).filter((found) => found.includes("token="));
    expect(link && new URL(link).origin).toBe("http://ut.localhost:4230");
    const other = await createTestUser(t);
    expect(await postForm("/forgotpassword", "localhost:4230", { email: other.email })).toBe(200);
    const reset = await lastMailTo(t, other.email, RESET_MAIL_KIND);
    const [resetLink] = linksIn(reset).filter((found) => found.includes("token="));
    expect(resetLink && new URL(resetLink).origin).toBe("http://localhost:4230");
  });
});
