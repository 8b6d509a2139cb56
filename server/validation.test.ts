import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AccountError, invalidAccountInput } from "./accounts/errors.shared";
import { invalidPostInput, PostError } from "./posts/errors";
import { invalidProfileInput, ProfileError } from "./profiles/errors";
import { parseInput } from "./validation";

const schema = z.object({
  email: z.string().email("Please enter a valid email."),
  bio: z.string().max(3, "Too long"),
});

describe("one input parser for every domain function (decision 0150)", () => {
  it("returns the parsed value", () => {
    expect(parseInput(schema, { email: "a@b.co", bio: "hi" }, invalidAccountInput)).toEqual({
      email: "a@b.co",
      bio: "hi",
    });
  });

  it("throws the area's error with the first issue's message and field", () => {
    const bad = { email: "nope", bio: "much too long" };
    for (const [invalid, type] of [
      [invalidAccountInput, AccountError],
      [invalidPostInput, PostError],
      [invalidProfileInput, ProfileError],
    ] as const) {
      let thrown: unknown;
      try {
        parseInput(schema, bad, invalid);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(type);
      expect(thrown).toMatchObject({
        code: "invalid-input",
        message: "Please enter a valid email.",
        status: 400,
      });
    }
    expect(() => parseInput(schema, bad, invalidAccountInput)).toThrow(
      expect.objectContaining({ field: "email" }),
    );
  });
});
