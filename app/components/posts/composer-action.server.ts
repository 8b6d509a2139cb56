import { data, type HeadersArgs, redirect } from "react-router";
import { readUploadForm } from "~/app/components/profile/upload-form.server";
import type { ToastInput } from "~/app/lib/toast";
import { isParticipationRefused, type ParticipationRefusal } from "~/server/accounts/gates";
import type { AppContext } from "~/server/context";
import { isPostError } from "~/server/posts/errors";
import { plainTextToRichText } from "~/server/posts/rich-text";
import { MAX_POST_FILES, MAX_POST_VIDEO_BYTES, POST_MESSAGES } from "~/server/posts/schemas";
import { refusalHref } from "./composer-targets";

/**
 * Decision 0082 'Uploads size': ten videos at the 100 MB cap plus room for the
 * multipart framing and the text. A body over it is refused before it is parsed.
 */
export const MAX_COMPOSER_BODY_BYTES = MAX_POST_FILES * MAX_POST_VIDEO_BYTES + 1024 * 1024;

/** The field the composer's script adds: it reads the answer as data rather than following a redirect. */
export const ENHANCED_FIELD = "enhanced";

/** What the composer actions answer (read by app/components/posts/composer.tsx through app/lib/upload.ts). */
export type ComposerActionData =
  | { ok: true; postId: string; rootId: string | null }
  | {
      ok: false;
      /** Who may not post or comment yet: the composer opens the matching prompt. */
      refusal?: ParticipationRefusal;
      /** Any other refusal or failure, as a toast (spec 2 §8). */
      toast?: ToastInput;
    };

/** The files of a composer form: every non-empty `files` entry (an empty file input sends one empty part). */
export function formFiles(form: FormData): File[] {
  return form.getAll("files").filter((entry): entry is File => entry instanceof File && entry.size > 0);
}

export function formString(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

/**
 * The text of a composer form: the editor's state (`text`, Lexical JSON) or,
 * from the plain form of app/components/posts/plain-composer-form.tsx,
 * `plainText` turned into the same format (one paragraph per line).
 */
export function formText(form: FormData): string | undefined {
  const text = formString(form, "text");
  if (text !== undefined) return text;
  const plain = formString(form, "plainText");
  return plain?.trim() ? JSON.stringify(plainTextToRichText(plain)) : undefined;
}

/** Whether the composer's script sent the form (it wants data back, not a redirect). */
export function isEnhanced(form: FormData): boolean {
  return form.get(ENHANCED_FIELD) === "1";
}

/** A form whose fields fail the schema (only a crafted request): the first message, as a toast. */
export function invalidComposerForm(message: string | undefined) {
  return data<ComposerActionData>(
    { ok: false, toast: { message: message ?? POST_MESSAGES.somethingWentWrong, type: "danger" } },
    { status: 400 },
  );
}

/** The posted form, read within the size cap; otherwise the answer to send. */
export async function readComposerForm(app: AppContext, request: Request) {
  try {
    const form = await readUploadForm(request, MAX_COMPOSER_BODY_BYTES);
    if (form === "too-large") {
      return data<ComposerActionData>(
        { ok: false, toast: { message: POST_MESSAGES.fileTooLarge, type: "danger" } },
        { status: 413 },
      );
    }
    return form;
  } catch (error) {
    app.log.warn({ err: error }, "unreadable composer form");
    return data<ComposerActionData>(
      { ok: false, toast: { message: POST_MESSAGES.somethingWentWrong, type: "danger" } },
      { status: 400 },
    );
  }
}

/**
 * The composer routes' `headers`: a posting-limit refusal's Retry-After (decision 0116) reaches
 * the browser; React Router passes an action's own headers on only through this export.
 */
export function composerHeaders({ actionHeaders, parentHeaders }: HeadersArgs): Headers {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

const REFUSAL_STATUS: Record<ParticipationRefusal["kind"], number> = {
  "sign-in": 401,
  "verify-email": 403,
  "verify-school": 403,
  "profile-incomplete": 403,
};

interface CampusLike {
  id: string;
  generic: boolean;
}

/**
 * A composer action's refusal, by kind (spec 2 §5, §8): a participation gate →
 * its prompt (or, without JavaScript, its page); a PostError → its message with
 * the spec's alert type; anything else → logged, 'Something went wrong.'.
 */
export function composerFailure(
  app: AppContext,
  error: unknown,
  options: { enhanced: boolean; setUpOrigin: string; postId?: string; campus: CampusLike },
) {
  if (isParticipationRefused(error)) {
    if (!options.enhanced) {
      throw redirect(
        refusalHref(error.refusal, {
          campusId: options.campus.id,
          generic: options.campus.generic,
          setUpOrigin: options.setUpOrigin,
          postId: options.postId,
        }),
      );
    }
    return data<ComposerActionData>(
      { ok: false, refusal: error.refusal },
      { status: REFUSAL_STATUS[error.refusal.kind] },
    );
  }
  if (isPostError(error)) {
    const status =
      error.code === "not-found"
        ? 404
        : error.code === "other-campus" || error.code === "forbidden"
          ? 403
          : error.code === "rate-limited"
            ? 429
            : 400;
    // Decision 0116: the posting limit says when to try again, to people and to scripts.
    const headers: HeadersInit =
      error.retryAfterSeconds === undefined ? {} : { "Retry-After": String(error.retryAfterSeconds) };
    return data<ComposerActionData>(
      { ok: false, toast: { message: error.message, type: error.alertType } },
      { status, headers },
    );
  }
  app.log.error({ err: error }, "composer submission failed");
  return data<ComposerActionData>(
    { ok: false, toast: { message: POST_MESSAGES.somethingWentWrong, type: "danger" } },
    { status: 500 },
  );
}
