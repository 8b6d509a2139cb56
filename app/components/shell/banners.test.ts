import { describe, expect, it } from "vitest";
import { bannerFor, verifyBannerTarget, visitCampusTarget } from "./banners";

const www = { generic: true };
const member = { verified: true, schoolEmail: "ana@utexas.edu", schoolVerified: true };

describe("bannerFor (spec 1 §2 'Banners')", () => {
  it("shows nothing to visitors", () => {
    expect(bannerFor(null, false)).toBeNull();
    expect(bannerFor(null, true)).toBeNull();
  });

  it("asks members without a verified e-mail or a school e-mail to verify", () => {
    expect(bannerFor({ ...member, verified: false }, false)).toBe("verify");
    expect(bannerFor({ ...member, schoolEmail: null, schoolVerified: false }, false)).toBe("verify");
    expect(bannerFor({ ...member, schoolEmail: null, schoolVerified: false }, true)).toBe("verify");
  });

  it("shows nothing to a fully verified member on a campus", () => {
    expect(bannerFor(member, false)).toBeNull();
  });

  it("invites school-verified members on the generic instance to their campus", () => {
    expect(bannerFor(member, true)).toBe("visit-campus");
  });
});

describe("banner targets", () => {
  it("verifies the school on a campus, or picks one on the generic instance", () => {
    expect(verifyBannerTarget(false)).toBe("/settings/account/school_email");
    expect(verifyBannerTarget(true)).toBe("/search_schools");
  });

  it("opens the member's campus site when the root knows it", () => {
    expect(visitCampusTarget({ campus: www, viewerCampusUrl: "https://utbuysell.com" })).toBe(
      "https://utbuysell.com",
    );
    expect(visitCampusTarget({ campus: www })).toBe("/home");
  });
});
