import { describe, expect, it } from "vitest";
import { signInReasonText, signInTargets } from "./sign-in-targets";

describe("the sign-in modal (spec 1 §2, §6)", () => {
  it("says why signing in is needed, for each reason", () => {
    expect(signInReasonText("like")).toBe("Log in or sign up to save posts.");
    expect(signInReasonText("comment")).toBe("Log in or sign up to comment on posts.");
    expect(signInReasonText("message")).toBe("Log in or sign up to message sellers.");
    expect(signInReasonText("post")).toBe("Log in or sign up to create a post.");
    expect(signInReasonText("search")).toBe("Log in or sign up to search.");
    expect(signInReasonText("join campus")).toBe("Log in or sign up to join your campus.");
  });

  it("leads to sign-up and log-in, and starts Google sign-in in place", () => {
    expect(signInTargets(false)).toEqual({ google: null, email: "/register", logIn: "/login" });
  });

  it("leads to /404 for a visitor the geo gate keeps out", () => {
    expect(signInTargets(true)).toEqual({ google: "/404", email: "/404", logIn: "/404" });
  });
});
