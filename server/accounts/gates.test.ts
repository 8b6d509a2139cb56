import { describe, expect, it } from "vitest";
import { formatUtcDateTime } from "../dates.shared";
import { INDEFINITELY } from "../moderation/rules.shared";
import {
  missingProfileParts,
  type ParticipationAction,
  type ParticipationRefusal,
  participationRefusal,
  suspensionRefusal,
} from "./gates.shared";
import { assertCanParticipate, isParticipationRefused } from "./participation";

const now = new Date("2026-11-28T12:00:00.000Z");

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
      expect(() => assertCanParticipate(viewer, action, now)).not.toThrow();
      return;
    }
    let caught: unknown;
    try {
      assertCanParticipate(viewer, action, now);
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
    expect(() => assertCanParticipate(viewers["no profile"], "post", now)).toThrow(
      "Please pick a profile picture and add a bio before posting",
    );
  });
});

describe("what a profile lacks before posting: the gate's rule, shared with the set-up wizard (decision 0448)", () => {
  const verified = { verified: true, schoolVerified: true };

  it("names the picture, the bio or both while profile_set_up is false", () => {
    expect(missingProfileParts({ profileSetUp: false, img: null, bio: "Selling a fridge" }, "post")).toEqual([
      "photo",
    ]);
    expect(
      missingProfileParts({ profileSetUp: false, img: "/media-files/p.webp", bio: "  " }, "post"),
    ).toEqual(["bio"]);
    expect(missingProfileParts({ profileSetUp: false, img: null, bio: null }, "post")).toEqual([
      "photo",
      "bio",
    ]);
    // A viewer carries only the flag: both are missing, as the gate has always said.
    expect(missingProfileParts({ profileSetUp: false }, "post")).toEqual(["photo", "bio"]);
  });

  it("names nothing once profile_set_up is true (it never turns back, decision 0051), or for other actions", () => {
    expect(
      missingProfileParts({ profileSetUp: true, img: "/media-files/p.webp", bio: null }, "post"),
    ).toEqual([]);
    for (const action of ["comment", "message", "like", "report"] as const) {
      expect(missingProfileParts({ profileSetUp: false, img: null, bio: null }, action)).toEqual([]);
    }
  });

  it("agrees with the posting gate: it refuses exactly when something is missing", () => {
    for (const action of ["post", "comment", "message", "like", "report"] as const) {
      for (const profileSetUp of [false, true]) {
        const refused =
          participationRefusal({ ...verified, profileSetUp }, action)?.kind === "profile-incomplete";
        expect(refused).toBe(missingProfileParts({ profileSetUp }, action).length > 0);
      }
    }
  });
});

describe("a suspension (decision 0547)", () => {
  const until = new Date("2026-12-01T15:00:00.000Z");
  const suspended = { ...viewers.complete, suspendedUntil: until };

  it("refuses posting, commenting, messaging, reporting and boosting until its end, with the date and a link to the standing page", () => {
    for (const action of ["post", "comment", "message", "report", "boost"] as const) {
      expect(suspensionRefusal(suspended, action, now)).toEqual({ kind: "suspended", until });
      // The browser's prompts never say it: the server refuses with the words and the link.
      if (action !== "boost") expect(participationRefusal(suspended, action)).toBeNull();
      let caught: unknown;
      try {
        assertCanParticipate(suspended, action, now);
      } catch (error) {
        caught = error;
      }
      expect(isParticipationRefused(caught)).toBe(true);
      if (!isParticipationRefused(caught)) continue;
      expect(caught.status).toBe(403);
      expect(caught.message).toBe("Your account is suspended until December 1, 2026 at 3:00 PM UTC");
      expect(caught.link).toEqual({ to: "/settings/account/standing", label: "See your standing" });
    }
  });

  it("never stops saving, and ends when the clock passes its end (no job)", () => {
    expect(suspensionRefusal(suspended, "like", now)).toBeNull();
    expect(() => assertCanParticipate(suspended, "like", now)).not.toThrow();
    expect(suspensionRefusal(suspended, "post", until)).toBeNull();
    expect(suspensionRefusal(suspended, "post", new Date(until.getTime() - 1))).toEqual({
      kind: "suspended",
      until,
    });
  });

  it("comes before the other gates, and says 'until a moderator lifts it' for INDEFINITELY", () => {
    const unverified = { ...viewers.unverified, suspendedUntil: INDEFINITELY };
    expect(() => assertCanParticipate(unverified, "post", now)).toThrow(
      expect.objectContaining({ code: "suspended" }),
    );
    expect(() => assertCanParticipate(unverified, "post", now)).toThrow(
      "Your account is suspended until a moderator lifts it",
    );
  });

  it("writes the end in UTC on a 12-hour clock", () => {
    expect(formatUtcDateTime(new Date("2026-03-05T00:07:00.000Z"))).toBe("March 5, 2026 at 12:07 AM UTC");
    expect(formatUtcDateTime(new Date("2026-07-31T12:30:00.000Z"))).toBe("July 31, 2026 at 12:30 PM UTC");
    expect(formatUtcDateTime(new Date("2026-12-01T23:59:00.000Z"))).toBe("December 1, 2026 at 11:59 PM UTC");
  });
});
