import { describe, expect, it } from "vitest";
import { closeTarget, finishLabel, originAction, parseStep, setUpHref } from "./set-up-origin";

describe("originAction (decision 0448: what the last step checks the posting gate for)", () => {
  it("is a post from the create origins, a comment from 'comment', nothing otherwise", () => {
    for (const origin of ["create", "create_home", "create_detail", "create_profile"]) {
      expect(originAction(origin)).toBe("post");
    }
    expect(originAction("comment")).toBe("comment");
    for (const origin of ["home", "profile", null, "settings"]) expect(originAction(origin)).toBeNull();
  });
});

describe("finishLabel (spec 1 §2 step 3)", () => {
  it("names the way back by origin", () => {
    for (const origin of ["create", "create_home", "create_detail", "create_profile", "comment"]) {
      expect(finishLabel(origin)).toBe("Continue Posting");
    }
    expect(finishLabel("home")).toBe("Back to Home");
    expect(finishLabel("profile")).toBe("Back to Profile");
    expect(finishLabel(null)).toBe("Continue");
    expect(finishLabel("settings")).toBe("Continue");
  });
});

describe("closeTarget", () => {
  it("returns to the posting flow, home or profile, else to the previous page (null)", () => {
    expect(closeTarget("create", null)).toBe("/create/post?goBack=home");
    expect(closeTarget("create_home", null)).toBe("/create/post?goBack=home");
    expect(closeTarget("create_detail", null)).toBe("/create/post?goBack=detail");
    expect(closeTarget("create_profile", null)).toBe("/create/post?goBack=profile");
    expect(closeTarget("comment", "3f1c")).toBe("/create/comment/3f1c");
    expect(closeTarget("comment", null)).toBeNull();
    expect(closeTarget("home", null)).toBe("/home");
    expect(closeTarget("profile", null)).toBe("/profile");
    expect(closeTarget(null, null)).toBeNull();
    expect(closeTarget("elsewhere", null)).toBeNull();
  });
});

describe("setUpHref and parseStep", () => {
  it("keep the origin across steps", () => {
    expect(setUpHref(1, null, null)).toBe("/profile/set-up");
    expect(setUpHref(2, "comment", "p1")).toBe("/profile/set-up?goBack=comment&postId=p1&step=2");
    expect(parseStep("3")).toBe(3);
    expect(parseStep("9")).toBe(1);
    expect(parseStep(null)).toBe(1);
  });
});
