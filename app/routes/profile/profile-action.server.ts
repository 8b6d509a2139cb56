import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { AREA_FAILURES, failureReply } from "~/app/lib/errors.server";
import { formFields, formFiles } from "~/app/lib/form.server";
import type { ToastInput } from "~/app/lib/toast";
import type { Viewer } from "~/server/accounts/viewer";
import type { AppContext } from "~/server/context";
import { PROFILE_FORM_LIMITS } from "~/server/http/middleware/body-limit";
import { updateBio, updateProfilePhoto } from "~/server/profiles/profiles";
import { PROFILE_MESSAGES } from "~/server/profiles/schemas.shared";
import { uploadFormReader } from "~/server/uploads/upload-form";

/** A photo's 10 MB plus room for the multipart framing and the other fields (decision 0120). */
export const MAX_UPLOAD_BODY_BYTES = PROFILE_FORM_LIMITS.maxBodyBytes;

/** What the profile forms' actions answer (the wizard and /profile/edit read it). */
export interface ProfileActionData {
  intent: string;
  ok: boolean;
  /** The stored photo's address after an upload. */
  img?: string;
  /** The stored bio after a save. */
  bio?: string | null;
  toast?: ToastInput | null;
  /** Conform's reply for the names and bio form of /profile/edit. */
  result?: SubmissionResult<string[]>;
}

function refused(intent: string, message: string, status: number) {
  return data<ProfileActionData>({ intent, ok: false, toast: { message, type: "danger" } }, { status });
}

/**
 * Reads the posted form within the upload caps (the photo streamed to disk, decision
 * 0120), answers `handle` with it and removes the photo's file afterwards, whatever
 * happened. A body over the caps is answered with the size message.
 */
export const withProfileForm = uploadFormReader("profile", PROFILE_FORM_LIMITS, (kind) =>
  kind === "too-large"
    ? refused("upload-photo", PROFILE_MESSAGES.photoTooLarge, 413)
    : refused("unknown", PROFILE_MESSAGES.somethingWentWrong, 400),
);

/**
 * intent 'upload-photo' (the wizard's step 1 and /profile/edit): the file in
 * field `photo` through the photo pipeline. Refusals carry the spec's message
 * ('Only photos are allowed!'); anything else is 'Error updating profile IMG'.
 */
export async function uploadPhoto(
  app: AppContext,
  viewer: Viewer,
  form: FormData,
  successToast: ToastInput | null = null,
) {
  const intent = "upload-photo";
  const [file] = formFiles(form, "photo");
  if (!file) {
    return refused(intent, PROFILE_MESSAGES.photoRequired, 400);
  }
  try {
    const result = await updateProfilePhoto(app, viewer, new Uint8Array(await file.arrayBuffer()));
    return data<ProfileActionData>({ intent, ok: true, img: result.img, toast: successToast });
  } catch (error) {
    return failureReply(app, error, {
      intent,
      fallback: PROFILE_MESSAGES.photoFailed,
      logMessage: "profile photo update failed",
    });
  }
}

/** intent 'save-bio' (the wizard's step 2). */
export async function saveBio(app: AppContext, viewer: Viewer, form: FormData) {
  const intent = "save-bio";
  const { bio } = formFields(form);
  try {
    const saved = await updateBio(app, viewer, typeof bio === "string" ? bio : "");
    return data<ProfileActionData>({ intent, ok: true, bio: saved.bio });
  } catch (error) {
    return failureReply(app, error, { intent, ...AREA_FAILURES.profile });
  }
}
