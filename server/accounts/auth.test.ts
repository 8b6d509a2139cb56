import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { authHosts } from "./auth";

// Decision 0110: better-auth trusts only the configured hosts in production; localhost:*,
// *.localhost:* and 127.0.0.1:* are development hosts.

const deployed = { production: true, port: 3000, publicUrl: null, campusHosts: { ou: "oubuysell.com" } };

describe("hosts better-auth answers for", () => {
  it("in production: CAMPUS_HOSTS (and www.) and PUBLIC_URL, nothing under localhost", () => {
    const hosts = authHosts({ ...deployed, publicUrl: "https://buysell.example.org" });
    expect(hosts.allowedHosts).toEqual(["oubuysell.com", "www.oubuysell.com", "buysell.example.org"]);
    expect(hosts.trustedOrigins).toEqual([
      "https://oubuysell.com",
      "https://www.oubuysell.com",
      "https://buysell.example.org",
    ]);
    expect(hosts.fallback).toBe("https://buysell.example.org");
    expect(authHosts(deployed).fallback).toBe("https://oubuysell.com");
  });

  it("outside production: every campus under localhost too, on any port", () => {
    const hosts = authHosts({ ...deployed, production: false });
    expect(hosts.allowedHosts).toEqual(
      expect.arrayContaining(["oubuysell.com", "localhost:*", "*.localhost:*"]),
    );
    expect(hosts.trustedOrigins).toEqual(
      expect.arrayContaining(["http://127.0.0.1:*", "http://*.localhost:*"]),
    );
  });

  it("in production with no host configured: docs/contract.md's localhost hosts, still no one else's", () => {
    const hosts = authHosts({ ...deployed, campusHosts: {} });
    expect(hosts.allowedHosts).toEqual(expect.arrayContaining(["localhost:*", "*.localhost:*"]));
    expect(hosts.allowedHosts.some((host) => host.includes("evil") || host === "*")).toBe(false);
    expect(hosts.fallback).toBe("http://localhost:3000");
  });
});

describe("better-auth in production", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(deployed);
    t.clock.set(new Date());
  });
  afterAll(() => t.close());

  /** Sign-out is the public endpoint that checks the Origin of a request carrying a session. */
  async function signOutFrom(origin: string): Promise<number> {
    const student = await createTestUser(t);
    const response = await t.auth.handler(
      new Request("https://oubuysell.com/api/auth/sign-out", {
        method: "POST",
        headers: { cookie: student.cookie, origin, "content-type": "application/json" },
        body: "{}",
      }),
    );
    return response.status;
  }

  it("refuses requests from localhost origins and accepts the configured host", async () => {
    for (const origin of ["http://localhost:3000", "http://ou.localhost:3000", "http://127.0.0.1:3000"]) {
      expect(await signOutFrom(origin), origin).toBe(403);
    }
    expect(await signOutFrom("https://oubuysell.com")).toBe(200);
  });
});
