import { describe, expect, it } from "vitest";
import type { Viewer } from "~/server/accounts/viewer";
import { configureAppCookies } from "../../server/http/cookie-settings";
import { applyOnceRedirects } from "./verification-redirect.server";

// Signed cookies need the secret the server configures at start (decision 0111).
configureAppCookies({ secrets: ["redirect-test-secret"], secure: false });

const base: Viewer = {
  id: "u1",
  email: "jamie@example.com",
  firstName: "Jamie",
  lastName: "R.",
  username: "jamier",
  img: null,
  campusId: "ou",
  verified: true,
  schoolVerified: false,
  schoolEmail: null,
  gradYear: null,
  profileSetUp: false,
  banned: false,
  suspendedUntil: null,
  redirectTo: null,
};
const campus = { generic: false };
const genericCampus = { generic: true };

function request(path: string, cookie?: string): Request {
  return new Request(`http://ou.localhost${path}`, cookie ? { headers: { Cookie: cookie } } : {});
}

/** The redirect a call throws (as a Response), or null when it lets the page render. */
async function outcome(
  path: string,
  viewer: Viewer | null,
  onCampus = campus,
  cookie?: string,
): Promise<{ location: string | null; cookie: string | null }> {
  try {
    const headers = await applyOnceRedirects(request(path, cookie), viewer, onCampus);
    return { location: null, cookie: headers.get("Set-Cookie") };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { location: thrown.headers.get("Location"), cookie: thrown.headers.get("Set-Cookie") };
  }
}

const cookiePair = (setCookie: string | null) => (setCookie ?? "").split(";")[0] ?? "";

describe("the school redirect of spec 1 §4", () => {
  it("sends an e-mail-verified user without a verified school to /settings/account/school_email", async () => {
    expect((await outcome("/home", base)).location).toBe("/settings/account/school_email");
  });

  it("happens once: with the cookie it set, the next page renders", async () => {
    const first = await outcome("/home", base);
    const again = await outcome("/home", base, campus, cookiePair(first.cookie));
    expect(again.location).toBeNull();
  });

  it("does not happen on the generic campus", async () => {
    expect((await outcome("/home", base, genericCampus)).location).toBeNull();
  });

  it("does not happen for school-verified users, nor before the e-mail is verified (that goes to /verify)", async () => {
    expect(
      (await outcome("/home", { ...base, schoolVerified: true, schoolEmail: "j@ou.edu" })).location,
    ).toBeNull();
    expect((await outcome("/home", { ...base, verified: false })).location).toBe("/verify");
    expect((await outcome("/home", null)).location).toBeNull();
  });

  it("never interrupts the account settings pages, and reaching the page counts as the redirect", async () => {
    for (const path of [
      "/settings/account",
      "/settings/account/email",
      "/settings/account/verify_email",
      "/settings/account/verify_school_email",
      "/search_schools",
      "/logout",
    ]) {
      expect((await outcome(path, base)).location).toBeNull();
    }
    const reached = await outcome("/settings/account/school_email", base);
    expect(reached.location).toBeNull();
    expect(reached.cookie).toContain("cbs_once_redirects");
    expect((await outcome("/home", base, campus, cookiePair(reached.cookie))).location).toBeNull();
  });

  it("comes after the e-mail redirect: both happen once each", async () => {
    const unverified = { ...base, verified: false };
    const toVerify = await outcome("/home", unverified);
    expect(toVerify.location).toBe("/verify");
    // Verified since: the school redirect still has its turn.
    const toSchool = await outcome("/home", base, campus, cookiePair(toVerify.cookie));
    expect(toSchool.location).toBe("/settings/account/school_email");
  });
});
