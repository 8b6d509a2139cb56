import { describe, expect, it } from "vitest";
import type { Viewer } from "~/server/accounts/viewer";
import { configureAppCookies } from "../../server/http/cookie-settings";
import { applyCampusRedirect, campusRedirectTarget } from "./campus-redirect.server";

// Signed cookies need the secret the server configures at start (decision 0111).
configureAppCookies({ secrets: ["redirect-test-secret"], secure: false });

const www = { id: "www", generic: true };
const ut = { id: "ut", generic: false };
const member: Viewer = {
  id: "u1",
  email: "jamie@utexas.edu",
  firstName: "Jamie",
  lastName: "R.",
  username: "jamier",
  img: null,
  campusId: "ut",
  verified: true,
  schoolVerified: true,
  schoolEmail: "jamie@utexas.edu",
  gradYear: null,
  profileSetUp: false,
  banned: false,
  suspendedUntil: null,
  redirectTo: "ut",
};
const campusUrl = (id: string) => `http://${id}.localhost:3000`;

/** The redirect a call throws (Location and Set-Cookie), or null when it lets the page render. */
async function outcome(
  path: string,
  viewer: Viewer | null,
  campus: { id: string; generic: boolean },
  cookie?: string,
): Promise<{ location: string | null; cookie: string | null } | null> {
  const request = new Request(
    `http://www.localhost:3000${path}`,
    cookie ? { headers: { Cookie: cookie } } : {},
  );
  try {
    await applyCampusRedirect(request, viewer, campus, campusUrl);
    return null;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { location: thrown.headers.get("Location"), cookie: thrown.headers.get("Set-Cookie") };
  }
}

describe("redirect_to on the generic instance (spec 1 §1)", () => {
  it("sends a member with redirect_to to their campus's site", async () => {
    const result = await outcome("/home", member, www);
    expect(result?.location).toBe("http://ut.localhost:3000/home");
    expect(result?.cookie).toMatch(/^cbs_campus_redirect=/);
  });

  it("does it once per browser session", async () => {
    const first = await outcome("/home", member, www);
    const cookie = (first?.cookie ?? "").split(";")[0];
    expect(await outcome("/home", member, www, cookie)).toBeNull();
    expect(await outcome("/search_schools", member, www, cookie)).toBeNull();
  });

  it("happens only on the generic instance, and only with redirect_to", async () => {
    expect(await outcome("/home", member, ut)).toBeNull();
    expect(await outcome("/home", { ...member, redirectTo: null }, www)).toBeNull();
    expect(await outcome("/home", null, www)).toBeNull();
  });

  it("never interrupts signing in or out, settings or the 404 page", () => {
    for (const path of [
      "/login",
      "/logout",
      "/verify",
      "/settings/account",
      "/settings/about",
      "/404",
      "/dev/mail",
    ]) {
      expect(campusRedirectTarget(member, www, path, false), path).toBeNull();
    }
    expect(campusRedirectTarget(member, www, "/search_schools", false)).toBe("ut");
  });
});
