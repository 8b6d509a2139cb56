import { describe, expect, it } from "vitest";
import { campusChoice, schoolPlace } from "./campus-choice";

const utUrl = "http://ut.localhost:3000";

describe("the Find Your School modal's button (spec 1 §2, §6)", () => {
  it("opens a school-verified member's own campus", () => {
    expect(campusChoice({ schoolVerified: true, campusId: "ut" }, "ut", utUrl)).toEqual({
      kind: "view",
      label: "View Your Campus",
      href: utUrl,
    });
  });

  it("lets a school-verified member visit another campus as a guest", () => {
    expect(campusChoice({ schoolVerified: true, campusId: "ou" }, "ut", utUrl)).toEqual({
      kind: "guest",
      label: "Visit As Guest",
      href: utUrl,
    });
  });

  it("sends a signed-in member without a verified school to the school e-mail form for that campus", () => {
    expect(campusChoice({ schoolVerified: false, campusId: "www" }, "ut", utUrl)).toEqual({
      kind: "join",
      label: "Join Campus",
      to: "/settings/account/school_email?campus=ut",
    });
    // Not verified, even when the account already sits on that campus.
    expect(campusChoice({ schoolVerified: false, campusId: "ut" }, "ut", utUrl).label).toBe("Join Campus");
  });

  it("asks a visitor to sign in", () => {
    expect(campusChoice(null, "ut", utUrl)).toEqual({
      kind: "sign-in",
      label: "Join Campus",
      to: "/user_registration",
    });
  });
});

describe("schoolPlace", () => {
  it("shows city, state and country, skipping what is unknown", () => {
    expect(schoolPlace({ city: "Austin", state: "TX", country: "US" })).toBe("Austin, TX, US");
    expect(schoolPlace({ city: null, state: null, country: "US" })).toBe("US");
  });
});
