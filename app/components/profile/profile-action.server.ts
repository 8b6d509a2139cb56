import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ToastInput } from "~/app/lib/toast";
import type { Viewer } from "~/server/accounts/viewer";
import type { AppContext } from "~/server/context";
import { MAX_IMAGE_BYTES } from "~/server/media/limits";
import { isProfileError } from "~/server/profiles/errors";
import { updateBio, updateProfilePhoto } from "~/server/profiles/profiles";
import { PROFILE_MESSAGES } from "~/server/profiles/schemas";
import { readUploadForm } from "./upload-form.server";

/** A photo's 10 MB plus room for the multipart framing and the other fields. */
export const MAX_UPLOAD_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

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

/** spec 1 §8 'Something went wrong' (danger) on any failure the user cannot fix. */
const SOMETHING_WENT_WRONG = "Something went wrong";

function refused(intent: string, message: string, status: number) {
  return data<ProfileActionData>({ intent, ok: false, toast: { message, type: "danger" } }, { status });
}

/** The posted form, read with the upload cap; a body over it is answered with the size message. */
export async function readProfileForm(
  app: AppContext,
  request: Request,
): Promise<FormData | ReturnType<typeof refused>> {
  try {
    const form = await readUploadForm(request, MAX_UPLOAD_BODY_BYTES);
    if (form === "too-large") return refused("upload-photo", PROFILE_MESSAGES.photoTooLarge, 413);
    return form;
  } catch (error) {
    app.log.warn({ err: error }, "unreadable profile form");
    return refused("unknown", SOMETHING_WENT_WRONG, 400);
  }
}

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
  const file = form.get("photo");
  if (!(file instanceof File) || file.size === 0) {
    return refused(intent, PROFILE_MESSAGES.photoRequired, 400);
  }
  try {
    const result = await updateProfilePhoto(app, viewer, new Uint8Array(await file.arrayBuffer()));
    return data<ProfileActionData>({ intent, ok: true, img: result.img, toast: successToast });
  } catch (error) {
    if (isProfileError(error)) return refused(intent, error.message, 400);
    app.log.error({ err: error }, "profile photo update failed");
    return refused(intent, PROFILE_MESSAGES.photoFailed, 500);
  }
}

/** intent 'save-bio' (the wizard's step 2). */
export async function saveBio(app: AppContext, viewer: Viewer, form: FormData) {
  const intent = "save-bio";
  const bio = form.get("bio");
  try {
    const saved = await updateBio(app, viewer, typeof bio === "string" ? bio : "");
    return data<ProfileActionData>({ intent, ok: true, bio: saved.bio });
  } catch (error) {
    if (isProfileError(error)) return refused(intent, error.message, 400);
    app.log.error({ err: error }, "bio update failed");
    return refused(intent, SOMETHING_WENT_WRONG, 500);
  }
}
