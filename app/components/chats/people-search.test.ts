import { describe, expect, it } from "vitest";
import { moveHighlight } from "./people-search";

describe("the New Message search's highlight (spec 1 §5 'New-message search')", () => {
  it("moves with Up and Down and wraps around at both ends", () => {
    expect(moveHighlight(-1, 3, "ArrowDown")).toBe(0);
    expect(moveHighlight(2, 3, "ArrowDown")).toBe(0);
    expect(moveHighlight(0, 3, "ArrowUp")).toBe(2);
    expect(moveHighlight(-1, 3, "ArrowUp")).toBe(2);
    expect(moveHighlight(1, 3, "ArrowUp")).toBe(0);
    expect(moveHighlight(0, 0, "ArrowDown")).toBe(-1);
  });
});
