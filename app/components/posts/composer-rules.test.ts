import { describe, expect, it } from "vitest";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import {
  createPostHref,
  goBackFromPath,
  goBackTarget,
  parseGoBack,
  refusalHref,
  setUpOriginFor,
} from "./composer-targets";
import { editorTextFromJson } from "./editor/editor-text";
import { checkFileChoice, fileKind, isAcceptedFile } from "./file-picker";

// The composer's browser-side mirrors of the server's rules (spec 2 §2, §5) and its routes.

describe("the editor's text", () => {
  it("counts as the server counts: line breaks between blocks are 2", () => {
    const text = editorTextFromJson(plainTextToRichText("ab\ncd"));
    expect(text.characters).toBe(6);
    expect(text.hasText).toBe(true);
    expect(text.overLimit).toBe(false);
    expect(JSON.parse(text.json ?? "null")).toEqual(plainTextToRichText("ab\ncd"));
  });

  it("is over the limit at 501 and sends nothing for blank lines", () => {
    expect(editorTextFromJson(plainTextToRichText("x".repeat(500))).overLimit).toBe(false);
    expect(editorTextFromJson(plainTextToRichText("x".repeat(501))).overLimit).toBe(true);
    const blank = editorTextFromJson(plainTextToRichText("  \n \n"));
    expect([blank.json, blank.hasText]).toEqual([null, false]);
  });

  it("needs text in the first block (spec 2 §5)", () => {
    const text = editorTextFromJson(plainTextToRichText("\nhello"));
    expect(text.hasText).toBe(false);
    expect(text.json).not.toBeNull();
  });
});

describe("the file checks", () => {
  it("accepts the spec's photo and video types by type or extension", () => {
    expect(isAcceptedFile({ name: "a.JPG", type: "" })).toBe(true);
    expect(isAcceptedFile({ name: "clip", type: "video/quicktime" })).toBe(true);
    expect(isAcceptedFile({ name: "notes.txt", type: "text/plain" })).toBe(false);
    expect(isAcceptedFile({ name: "vector.svg", type: "image/svg+xml" })).toBe(false);
    expect(fileKind({ name: "clip.mov", type: "" })).toBe("video");
    expect(fileKind({ name: "photo.webp", type: "image/webp" })).toBe("image");
  });

  it("refuses an eleventh file (okay) before a wrong type (danger)", () => {
    const photo = { name: "p.png", type: "image/png" };
    expect(checkFileChoice(9, [photo])).toBeNull();
    expect(checkFileChoice(9, [photo, photo])).toEqual({
      message: "Please choose up to 10 photos.",
      type: "okay",
    });
    expect(checkFileChoice(0, [photo, { name: "x.pdf", type: "application/pdf" }])).toEqual({
      message: "Only photos & videos are allowed!",
      type: "danger",
    });
  });
});

describe("where the composers lead", () => {
  it("reads goBack and returns to its page", () => {
    expect(parseGoBack("detail")).toBe("detail");
    expect(parseGoBack("elsewhere")).toBe("home");
    expect(goBackFromPath("/post/123")).toBe("detail");
    expect(goBackFromPath("/media/123")).toBe("detail");
    expect(goBackFromPath("/profile")).toBe("profile");
    expect(goBackFromPath("/saved")).toBe("home");
    expect(createPostHref("profile", "tickets")).toBe("/create/post?goBack=profile&category=tickets");
    expect([goBackTarget("home"), goBackTarget("profile"), goBackTarget("detail")]).toEqual([
      "/home",
      "/profile",
      null,
    ]);
  });

  it("sends each refusal to its page (spec 1 §2 set-up origins)", () => {
    const where = { campusId: "ut", generic: false, setUpOrigin: setUpOriginFor("detail") };
    expect(refusalHref({ kind: "sign-in" }, where)).toBe("/user_registration");
    expect(refusalHref({ kind: "verify-email" }, where)).toBe("/verify");
    expect(refusalHref({ kind: "verify-school" }, where)).toBe("/settings/account/school_email?campus=ut");
    expect(refusalHref({ kind: "verify-school" }, { ...where, generic: true })).toBe("/search_schools");
    expect(refusalHref({ kind: "profile-incomplete" }, where)).toBe("/profile/set-up?goBack=create_detail");
    expect(
      refusalHref({ kind: "profile-incomplete" }, { ...where, setUpOrigin: "comment", postId: "p1" }),
    ).toBe("/profile/set-up?goBack=comment&postId=p1");
  });
});
