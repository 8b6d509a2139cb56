import { describe, expect, it } from "vitest";
import {
  assertCanParticipate,
  isParticipationRefused,
  type ParticipationAction,
  type ParticipationRefusal,
  participationRefusal,
} from "./gates";

type State = "signed out" | "unverified" | "no school" | "no profile" | "complete";

const viewers: Record<
  Exclude<State, "signed out">,
  { verified: boolean; schoolVerified: boolean; profileSetUp: boolean }
> = {
  unverified: { verified: false, schoolVerified: false, profileSetUp: false },
  "no school": { verified: true, schoolVerified: false, profileSetUp: true },
  "no profile": { verified: true, schoolVerified: true, profileSetUp: false },
  complete: { verified: true, schoolVerified: true, profileSetUp: true },
};

function viewerIn(state: State) {
  return state === "signed out" ? null : viewers[state];
}

// spec 1 §6, spec 2 §5 and §6: the whole decision table.
const table: [State, ParticipationAction, ParticipationRefusal | null][] = [
  ["signed out", "post", { kind: "sign-in", reason: "post" }],
  ["signed out", "comment", { kind: "sign-in", reason: "comment" }],
  ["signed out", "message", { kind: "sign-in", reason: "message" }],
  ["signed out", "like", { kind: "sign-in", reason: "like" }],
  ["unverified", "post", { kind: "verify-email" }],
  ["unverified", "comment", { kind: "verify-email" }],
  ["unverified", "message", { kind: "verify-email" }],
  ["unverified", "like", { kind: "verify-email" }],
  ["no school", "post", { kind: "verify-school" }],
  ["no school", "comment", { kind: "verify-school" }],
  ["no school", "message", { kind: "verify-school" }],
  ["no school", "like", null],
  ["no profile", "post", { kind: "profile-incomplete" }],
  ["no profile", "comment", null],
  ["no profile", "message", null],
  ["no profile", "like", null],
  ["complete", "post", null],
  ["complete", "comment", null],
  ["complete", "message", null],
  ["complete", "like", null],
];

describe("who may take part (spec 1 §6, spec 2 §5)", () => {
  it.each(table)("%s, %s → %j", (state, action, expected) => {
    expect(participationRefusal(viewerIn(state), action)).toEqual(expected);
  });

  it("checks in the order sign-in, e-mail, school, profile", () => {
    // A user missing everything is first asked to verify the e-mail, not to set up a profile.
    expect(
      participationRefusal({ verified: false, schoolVerified: false, profileSetUp: false }, "post"),
    ).toEqual({
      kind: "verify-email",
    });
    expect(
      participationRefusal({ verified: true, schoolVerified: false, profileSetUp: false }, "post"),
    ).toEqual({
      kind: "verify-school",
    });
  });

  it.each(table)("assertCanParticipate: %s, %s", (state, action, expected) => {
    const viewer = viewerIn(state);
    if (expected === null) {
      expect(() => assertCanParticipate(viewer, action)).not.toThrow();
      return;
    }
    let caught: unknown;
    try {
      assertCanParticipate(viewer, action);
    } catch (error) {
      caught = error;
    }
    expect(isParticipationRefused(caught)).toBe(true);
    if (isParticipationRefused(caught)) {
      expect(caught.refusal).toEqual(expected);
      expect(caught.message.length).toBeGreaterThan(0);
    }
  });

  it("tells the profile-incomplete refusal with the modal's text (spec 2 §2)", () => {
    expect(() => assertCanParticipate(viewers["no profile"], "post")).toThrow(
      "Please pick a profile picture and add a bio before posting",
    );
  });
});
