import { describe, expect, it } from "vitest";
import { landingAction } from "./landing";

describe("landingAction (spec 1 §1)", () => {
  it("asks visitors to join", () => {
    expect(landingAction(null, null)).toEqual({
      kind: "join",
      label: "Join Your Campus",
      to: "/user_registration",
    });
  });

  it("sends members without a verified school to find their campus", () => {
    expect(landingAction({ schoolVerified: false }, null)).toEqual({
      kind: "find",
      label: "Find Your Campus",
      to: "/search_schools",
    });
  });

  it("opens the campus site for school-verified members", () => {
    expect(landingAction({ schoolVerified: true }, "http://ut.localhost:3000")).toEqual({
      kind: "view",
      label: "View Your Campus",
      href: "http://ut.localhost:3000",
    });
  });
});
