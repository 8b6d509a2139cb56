import { describe, expect, it } from "vitest";
import { shellModeOf } from "./shell-mode";

describe("shellModeOf", () => {
  it("defaults to the full shell", () => {
    expect(shellModeOf([])).toBe("full");
    expect(shellModeOf([undefined, { other: true }])).toBe("full");
  });

  it("lets the deepest route decide", () => {
    expect(shellModeOf([undefined, { shell: "wide" }, { shell: "bare" }])).toBe("bare");
    expect(shellModeOf([{ shell: "bare" }, { shell: "full" }])).toBe("full");
    expect(shellModeOf([{ shell: "wide" }, undefined])).toBe("wide");
  });

  it("ignores values that are not modes", () => {
    expect(shellModeOf([{ shell: "wide" }, { shell: "sideways" }, null])).toBe("wide");
  });
});
