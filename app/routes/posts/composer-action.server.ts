import { data, type HeadersArgs } from "react-router";
import type { z } from "zod";
import { refusalHref } from "~/app/components/posts/composer-targets";
import { AREA_FAILURES, failureReply, type ParticipationAnswer } from "~/app/lib/errors.server";
import { formFields, formFiles } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import type { ParticipationRefusal, PromptRefusal } from "~/server/accounts/gates.shared";
import type { Viewer } from "~/server/accounts/viewer";
import type { AppContext } from "~/server/context";
import { COMPOSER_FORM_LIMITS } from "~/server/http/middleware/body-limit";
import { requireParticipant } from "~/server/posts/access";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { POST_MESSAGES, postFormSchema } from "~/server/posts/schemas";
import { readLeadingFields, uploadFormReader } from "~/server/uploads/upload-form";

/**
 * Decision 0082 'Uploads size', decision 0120: ten videos at the 100 MB cap plus
 * room for the multipart framing and the text. A body over it is refused before
 * it is read.
 */
export const MAX_COMPOSER_BODY_BYTES = COMPOSER_FORM_LIMITS.maxBodyBytes;

/**
 * How much of a refused request's body is read to word the refusal: the fields
 * before the first file (the composer sends `enhanced` first), never the files.
 */
export const REFUSAL_READ_BYTES = 64 * 1024;

/** The field the composer's script adds: it reads the answer as data rather than following a redirect. */
export const ENHANCED_FIELD = "enhanced";

/** What the composer actions answer (read by app/components/posts/composer-draft.tsx through app/lib/upload.ts). */
export type ComposerActionData =
  | { ok: true; postId: string; rootId: string | null }
  | {
      ok: false;
      /** Who may not post or comment yet: the composer opens the matching prompt. */
      refusal?: ParticipationRefusal;
      /** Any other refusal or failure, as a toast (spec 2 §8). */
      toast?: ToastInput;
    };

export function formString(form: FormData, name: string): string | undefined {
  const value = formFields(form)[name];
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
  return formFields(form)[ENHANCED_FIELD] === "1";
}

/** A form whose fields fail the schema (only a crafted request): the first message, as a toast. */
export function invalidComposerForm(message: string | undefined) {
  return data<ComposerActionData>(
    { ok: false, toast: { message: message ?? POST_MESSAGES.somethingWentWrong, type: "danger" } },
    { status: 400 },
  );
}

/**
 * Reads the posted form within the caps (files streamed to disk, decision 0120),
 * answers `handle` with it, and removes the files afterwards, whatever happened.
 * A body over the caps is answered 413 and a broken one 400, without `handle`.
 */
export const withComposerForm = uploadFormReader("composer", COMPOSER_FORM_LIMITS, (kind) =>
  data<ComposerActionData>(
    {
      ok: false,
      toast: {
        message: kind === "too-large" ? POST_MESSAGES.fileTooLarge : POST_MESSAGES.somethingWentWrong,
        type: "danger",
      },
    },
    { status: kind === "too-large" ? 413 : 400 },
  ),
);

/**
 * Decision 0120: who may not post or comment is answered before the body is read —
 * the same answer the domain would give (server/posts/access.ts), so a signed-out
 * upload costs nothing. Null when the viewer may go on.
 */
export async function refuseBeforeReading(
  app: AppContext,
  request: Request,
  viewer: Viewer | null,
  action: "post" | "comment",
  options: { setUpOrigin: string; postId?: string; campus: CampusLike },
) {
  try {
    requireParticipant(viewer, action, app.clock.now());
    return null;
  } catch (error) {
    const leading = await readLeadingFields(request, REFUSAL_READ_BYTES);
    return failureReply(app, error, {
      participation: composerParticipation({ enhanced: isEnhanced(leading), ...options }),
    });
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

/**
 * The composer routes' action (spec 2 §4, §5; decision 0120): who may not post or comment is
 * answered before the body is read; then the form within the caps, its fields checked by
 * `schema` (as read by `fields`), and `create` with them and the files. The composer's script
 * gets { ok, postId, rootId } or the refusal as data; a plain form gets `plainAnswer`.
 */
export async function answerComposerForm<Input, Created extends { id: string; rootId: string | null }>(
  app: AppContext,
  request: Request,
  viewer: Viewer | null,
  options: {
    action: "post" | "comment";
    where: { setUpOrigin: string; postId?: string; campus: CampusLike };
    schema: z.ZodType<Input>;
    fields: (form: FormData) => Record<string, string | undefined>;
    /** `form` for the fields a schema of one value a field cannot carry (decision 0640: removeMedia). */
    create: (input: Input, files: File[], form: FormData) => Promise<Created>;
    plainAnswer: (created: Created) => Response | Promise<Response>;
  },
) {
  const { action, where } = options;
  const refused = await refuseBeforeReading(app, request, viewer, action, where);
  if (refused) return refused;
  return withComposerForm(app, request, async (form) => {
    const enhanced = isEnhanced(form);
    const parsed = options.schema.safeParse(options.fields(form));
    if (!parsed.success) return invalidComposerForm(parsed.error.issues[0]?.message);
    try {
      const created = await options.create(parsed.data, formFiles(form, "files"), form);
      if (!enhanced) return options.plainAnswer(created);
      return data<ComposerActionData>({ ok: true, postId: created.id, rootId: created.rootId });
    } catch (error) {
      return failureReply(app, error, {
        ...AREA_FAILURES.posts,
        participation: composerParticipation({ enhanced, ...where }),
      });
    }
  });
}

/** The post composer's fields, as createPost and editListing read them (decisions 0170, 0640). */
export interface PostFormInput {
  text: z.infer<typeof postFormSchema>["text"];
  category: z.infer<typeof postFormSchema>["category"];
  listing: Pick<z.infer<typeof postFormSchema>, "price" | "priceTerms" | "condition" | "listingKind">;
}

/**
 * Decision 0641: the post composer's form, one reading for /create/post and /post/{id}/edit
 * (decision 0640: an edit is checked as posting is): its fields through `postFormSchema`, then
 * `save` (create or edit) with them, the files and the form.
 */
export function answerPostForm<Created extends { id: string; rootId: string | null }>(
  app: AppContext,
  request: Request,
  viewer: Viewer | null,
  options: {
    where: { setUpOrigin: string; postId?: string; campus: CampusLike };
    save: (input: PostFormInput, files: File[], form: FormData) => Promise<Created>;
    plainAnswer: (created: Created) => Response | Promise<Response>;
  },
) {
  return answerComposerForm(app, request, viewer, {
    action: "post",
    where: options.where,
    schema: postFormSchema,
    fields: (form) => ({
      text: formText(form),
      category: formString(form, "category"),
      price: formString(form, "price"),
      priceTerms: formString(form, "priceTerms"),
      condition: formString(form, "condition"),
      listingKind: formString(form, "listingKind"),
    }),
    create: ({ text, category, ...listing }, files, form) =>
      options.save({ text, category, listing }, files, form),
    plainAnswer: options.plainAnswer,
  });
}

interface CampusLike {
  id: string;
  generic: boolean;
}

/**
 * Where a participation refusal takes a composer (spec 2 §5, §8): with JavaScript, the
 * matching prompt; without, its page. Passed to the one adapter (app/lib/errors.server.ts).
 */
export function composerParticipation(options: {
  enhanced: boolean;
  setUpOrigin: string;
  postId?: string;
  campus: CampusLike;
}): (refusal: PromptRefusal) => ParticipationAnswer {
  return (refusal) =>
    options.enhanced
      ? { prompt: true }
      : {
          redirect: refusalHref(refusal, {
            campusId: options.campus.id,
            generic: options.campus.generic,
            setUpOrigin: options.setUpOrigin,
            postId: options.postId,
          }),
        };
}
