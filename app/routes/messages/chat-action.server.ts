import { data } from "react-router";
import { failureReply, type ParticipationAnswer } from "~/app/lib/errors.server";
import { formFields, formFiles } from "~/app/lib/form.server";
import type { ParticipationRefusal } from "~/server/accounts/gates.shared";
import type { MessageInput } from "~/server/chats/content";
import { messageTooLong } from "~/server/chats/errors";
import { CHAT_MESSAGES, messageFormSchema } from "~/server/chats/schemas.shared";
import type { AppContext } from "~/server/context";
import { CHAT_FORM_LIMITS } from "~/server/http/middleware/body-limit";
import { formHoldsNul } from "~/server/http/middleware/form-bodies";
import { nudgeOf } from "~/server/safety/errors";
import { readUploadForm, uploadTempRoot } from "~/server/uploads/upload-form";

/**
 * The chat pages' forms (decision 0120): read within the chat's caps, the one photo streamed to
 * disk and removed afterwards, whatever happened. A body over the caps is answered 413, a
 * broken one 400, without `handle`.
 */
export async function withChatForm<T>(
  app: AppContext,
  request: Request,
  handle: (form: FormData) => Promise<T>,
) {
  let read: Awaited<ReturnType<typeof readUploadForm>>;
  try {
    read = await readUploadForm(request, uploadTempRoot(app.config.dataDir), CHAT_FORM_LIMITS);
  } catch (error) {
    app.log.warn({ err: error }, "unreadable chat form");
    read = { kind: "malformed", reason: "unreadable" };
  }
  if (read.kind !== "form" || formHoldsNul(read.form)) {
    return data(
      {
        ok: false as const,
        toast: { message: CHAT_MESSAGES.somethingWentWrong, type: "danger" as const },
      },
      { status: read.kind === "too-large" ? 413 : 400 },
    );
  }
  try {
    return await handle(read.form);
  } finally {
    await read.dispose();
  }
}

/**
 * A message's fields from a chat form: text, the shared post, the one photo (an empty file input
 * sends an empty part). Call it inside the action's try: a field over its cap throws the chats
 * area's ChatError.
 */
export function messageFromForm(form: FormData): MessageInput {
  const { text, postId, acknowledgedNudge } = formFields(form);
  const parsed = messageFormSchema.safeParse({
    text: typeof text === "string" ? text : undefined,
    postId: typeof postId === "string" && postId !== "" ? postId : undefined,
  });
  const files = formFiles(form, "photo");
  // Over the field cap the text is too long whatever it holds (spec 2 §5): the chats area's own
  // refusal, answered by the action's catch through chatFailure like any other.
  if (!parsed.success) throw messageTooLong();
  return {
    text: parsed.data.text,
    postId: parsed.data.postId ?? null,
    files,
    // docs/product/safety.md: 'Send anyway' after the nudge.
    acknowledgedNudge: acknowledgedNudge === "1",
  };
}

/**
 * Where a chat action's participation refusal goes: signed out → /user_registration (the page
 * behind the sign-in modal); e-mail not verified → /verify; school not verified → the school
 * prompt on the page (spec 2 §5).
 */
export function chatParticipation(refusal: ParticipationRefusal): ParticipationAnswer {
  if (refusal.kind === "sign-in") return { redirect: "/user_registration" };
  if (refusal.kind === "verify-email") return { redirect: "/verify" };
  return { prompt: true };
}

/** The chat area's answer to a refusal or an unexpected failure (spec 2 §8 'Something went wrong'). */
export function chatFailure(app: AppContext, error: unknown, intent: string) {
  // docs/product/safety.md 'Nudges': the composer asks the sender (Edit / Send anyway) instead of a toast.
  const nudge = nudgeOf(error);
  if (nudge) {
    return data(
      { ok: false as const, intent, toast: null, nudge: { message: nudge.message } },
      { status: nudge.status },
    );
  }
  return failureReply(app, error, {
    intent,
    fallback: CHAT_MESSAGES.somethingWentWrong,
    logMessage: "chat action failed",
    participation: chatParticipation,
  });
}
