import { DomainError } from "../errors.shared";
import { SUSPENDED_LINK, suspendedMessage } from "../moderation/suspension.shared";
import {
  type GateViewer,
  PARTICIPATION_MESSAGES,
  type ParticipationAction,
  type ParticipationRefusal,
  participationRefusal,
  suspensionRefusal,
} from "./gates.shared";

/**
 * The server's side of the participation gate (server/accounts/gates.shared.ts decides; this
 * refuses): the error a refused action throws, with its words, status and, for a suspension, the
 * link to the standing page (decision 0547). Apart from the shared gate so that the shell's first
 * load, which runs the gate, carries none of the suspension's words (decision 0547).
 */

/** The words of any refusal. */
export function participationMessage(refusal: ParticipationRefusal): string {
  return refusal.kind === "suspended"
    ? suspendedMessage(refusal.until)
    : PARTICIPATION_MESSAGES[refusal.kind];
}

/** Signed out is 401 (sign in, then retry); the other gates are 403 (decision 0140). */
const PARTICIPATION_STATUS: Record<ParticipationRefusal["kind"], number> = {
  "sign-in": 401,
  "verify-email": 403,
  "verify-school": 403,
  "profile-incomplete": 403,
  suspended: 403,
};

export class ParticipationRefused extends DomainError<ParticipationRefusal["kind"]> {
  constructor(readonly refusal: ParticipationRefusal) {
    super(refusal.kind, participationMessage(refusal), {
      status: PARTICIPATION_STATUS[refusal.kind],
      ...(refusal.kind === "suspended" ? { link: SUSPENDED_LINK } : {}),
    });
    this.name = "ParticipationRefused";
  }
}

export function isParticipationRefused(error: unknown): error is ParticipationRefused {
  return error instanceof ParticipationRefused;
}

/**
 * What the server gates: the shared gate's actions, and boosting (spec 2 §4 'Boost Post': only the
 * post's owner, whom boostPost checks; decision 0547: the gate refuses it while suspended).
 */
export type GatedAction = ParticipationAction | "boost";

/** Throws ParticipationRefused unless `viewer` may take `action` at `now`; narrows a nullable viewer. */
export function assertCanParticipate<V extends GateViewer>(
  viewer: V | null,
  action: GatedAction,
  now: Date,
): asserts viewer is V {
  // Decision 0547: a suspension first, before prompts the student could not act on anyway.
  const refusal =
    suspensionRefusal(viewer, action, now) ??
    (action === "boost"
      ? viewer
        ? null
        : ({ kind: "sign-in", reason: "post" } as const)
      : participationRefusal(viewer, action));
  if (refusal) throw new ParticipationRefused(refusal);
}
