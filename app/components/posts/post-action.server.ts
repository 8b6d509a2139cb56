import { data, redirect } from "react-router";
import type { ToastInput } from "~/app/lib/toast";
import { isParticipationRefused } from "~/server/accounts/gates";
import { isPostError, type PostErrorCode } from "~/server/posts/errors";
import type { PostActionData } from "./post-actions";

const statusOf: Partial<Record<PostErrorCode, number>> = {
  "not-found": 404,
  forbidden: 403,
  "other-campus": 403,
  "private-campus": 403,
  "rate-limited": 429,
};

/**
 * A refusal of the posts domain as the answer of an action (ARCHITECTURE.md rule 5):
 * signed out → /user_registration (the page behind the sign-in modal, for a plain
 * form; with JavaScript the buttons open the modal before sending); e-mail not
 * verified → /verify; any other refusal → its message as a toast of the spec's
 * type. Unexpected errors are rethrown (the error boundary).
 */
export function postActionRefusal(error: unknown, intent: string) {
  if (isParticipationRefused(error)) {
    if (error.refusal.kind === "sign-in") throw redirect("/user_registration");
    if (error.refusal.kind === "verify-email") throw redirect("/verify");
    const toast: ToastInput = { message: error.message, type: "danger" };
    return data<PostActionData>({ intent, ok: false, toast }, { status: 403 });
  }
  if (isPostError(error)) {
    const toast: ToastInput = { message: error.message, type: error.alertType };
    return data<PostActionData>({ intent, ok: false, toast }, { status: statusOf[error.code] ?? 400 });
  }
  throw error;
}
