import { describe, expect, it } from "vitest";
import { isPrivateToViewer } from "./privacy";

const member = { id: "u1" };

describe("the private community gate (spec 1 §6)", () => {
  it("keeps logged-out visitors out of a private community", () => {
    expect(isPrivateToViewer({ privacy: "private", generic: false }, null)).toBe(true);
  });

  it("lets signed-in users see it", () => {
    expect(isPrivateToViewer({ privacy: "private", generic: false }, member)).toBe(false);
  });

  it("leaves public communities and the generic instance open", () => {
    expect(isPrivateToViewer({ privacy: "public", generic: false }, null)).toBe(false);
    expect(isPrivateToViewer({ privacy: "private", generic: true }, null)).toBe(false);
  });
});
