import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { impossibleCursorTime } from "../../tests/support/impossible-times";
import { PostError } from "../posts/errors";
import { decodeCursor, encodeCursor } from "./cursor";

const id = "0b3c5a4e-8f1d-4c1e-9a55-2d7f4f6b9e01";
const cursorAt = (time: string) => Buffer.from(JSON.stringify([time, id]), "utf8").toString("base64url");

describe("decodeCursor", () => {
  it("reads back a cursor it made", () => {
    const key = { time: "2026-03-02T15:00:00.123456Z", id };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it.each([
    "2026-13-01T00:00:00.000000Z",
    "2026-02-30T00:00:00.000000Z",
    "2026-01-01T25:00:00.000000Z",
    "2026-01-01T23:61:00.000000Z",
    "2026-01-01T23:00:60.000000Z",
    "0000-01-01T00:00:00.000000Z",
    "2026-00-10T00:00:00.000000Z",
  ])(
    "refuses the impossible time %s as a tampered cursor, before any SQL (docs/product/outages-and-errors.md)",
    (time) => {
      expect(() => decodeCursor(cursorAt(time))).toThrow(PostError);
    },
  );

  it("refuses every impossible time in the cursor's shape (generated, docs/product/outages-and-errors.md)", () => {
    fc.assert(
      fc.property(impossibleCursorTime, (time) => {
        expect(() => decodeCursor(cursorAt(time))).toThrow(PostError);
      }),
    );
  });
});
