import { getFormProps } from "@conform-to/react";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { Form, redirect } from "react-router";
import { z } from "zod";
import { PhotoPicker } from "~/app/components/profile/photo-picker";
import { pageTitle } from "~/app/components/shell/campus";
import { NoScriptMessage, useActionToast, useSubmitting } from "~/app/components/ui/action-feedback";
import { BackButton } from "~/app/components/ui/back-button";
import { Button } from "~/app/components/ui/button";
import { ConformField, useSchemaForm } from "~/app/components/ui/field";
import { AREA_FAILURES, submitForm } from "~/app/lib/errors.server";
import { readIntent } from "~/app/lib/form.server";
import { useHydrated, useKeepTypedText } from "~/app/lib/hydrated";
import type { ToastInput } from "~/app/lib/toast";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { uploadPhoto, withProfileForm } from "~/app/routes/profile/profile-action.server";
import { MAX_NAME_LENGTH } from "~/server/accounts/names.shared";
import { getProfileById, updateProfileDetails } from "~/server/profiles/profiles";
import { editProfileSchema, MAX_BIO_LENGTH, PROFILE_MESSAGES } from "~/server/profiles/schemas.shared";
import type { Route } from "./+types/edit";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 1 §8 'Profile Updated' (success). */
const PROFILE_UPDATED: ToastInput = { message: PROFILE_MESSAGES.profileUpdated, type: "success" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Edit Profile", matches[0]?.loaderData?.campus) }];
}

/** spec 1 §2: /profile/edit 'redirects to /login if signed out'. */
async function requireEditor(args: Route.LoaderArgs | Route.ActionArgs) {
  const viewer = await getViewer(args);
  if (!viewer) throw redirect("/login");
  return viewer;
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireEditor(args);
  const profile = await getProfileById(args.context.app, viewer.id);
  if (!profile) throw redirect("/login");
  return {
    profile: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      img: profile.img,
      bio: profile.bio ?? "",
    },
  };
}

/** The page's two forms: the details (also what a form without an intent means) and the photo. */
const EditIntent = z.enum(["update-profile", "upload-photo"]).default("update-profile");

/** intent 'upload-photo' (multipart, field `photo`) or 'update-profile' (first and last name, bio). */
export async function action(args: Route.ActionArgs) {
  const viewer = await requireEditor(args);
  const { app } = args.context;
  return withProfileForm(app, args.request, async (form) => {
    if (readIntent(form, EditIntent) === "upload-photo")
      return uploadPhoto(app, viewer, form, PROFILE_UPDATED);

    return submitForm(
      app,
      form,
      editProfileSchema,
      async (value) => {
        await updateProfileDetails(app, viewer, value);
        return redirectWithToast("/profile/edit", PROFILE_UPDATED);
      },
      {
        failures: AREA_FAILURES.profile,
        intent: "update-profile",
        inlineFields: ["firstName", "lastName", "bio"],
      },
    );
  });
}

type ProfileDetails = { firstName: string; lastName: string; bio: string };

/** What the form's fields hold now, from the elements themselves (not a submitted form: decision 0490). */
function readDetails(form: HTMLFormElement): ProfileDetails {
  const value = (name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : "";
  };
  return { firstName: value("firstName"), lastName: value("lastName"), bio: value("bio") };
}

function sameDetails(a: ProfileDetails, b: ProfileDetails): boolean {
  return a.firstName === b.firstName && a.lastName === b.lastName && a.bio === b.bio;
}

/** spec 1 §2 /profile/edit: photo, first and last name, bio. */
export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  const submitting = useSubmitting("update-profile");
  const hydrated = useHydrated();
  const bioId = useId();
  useActionToast(actionData?.toast);
  const saved = { firstName: profile.firstName, lastName: profile.lastName, bio: profile.bio };
  const formRef = useRef<HTMLFormElement>(null);
  const bioRef = useRef<HTMLTextAreaElement>(null);
  // A bio typed before the script ran survives hydration (before the form is read below).
  useKeepTypedText(bioId, bioRef);
  const [values, setValues] = useState(saved);
  // After every render, what the form holds: the student may have typed before the page's script
  // ran, and only typing after it reaches onChange. A layout effect, as in useSaveEnabled: Save is
  // never painted disabled over a changed form (a click on it would be lost). Unchanged values keep
  // the same state, so nothing renders again.
  useLayoutEffect(() => {
    if (!formRef.current) return;
    const current = readDetails(formRef.current);
    setValues((previous) => (sameDetails(previous, current) ? previous : current));
  });
  const [form, fields] = useSchemaForm(editProfileSchema, {
    lastResult: actionData?.result,
    defaultValue: saved,
  });

  // spec 1 §4: Save is disabled when nothing changed or a name is empty (an empty bio is allowed).
  const changed =
    values.firstName.trim() !== saved.firstName ||
    values.lastName.trim() !== saved.lastName ||
    values.bio.trim() !== saved.bio;
  const complete = values.firstName.trim() !== "" && values.lastName.trim() !== "";

  return (
    <section aria-labelledby="edit-profile-title" className="rounded-2xl border border-zinc-200 bg-white">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2">
        <BackButton />
        <h1 id="edit-profile-title" className="text-lg font-bold text-zinc-900">
          Edit Profile
        </h1>
      </header>
      <div className="flex flex-col gap-8 px-4 py-6 sm:px-6">
        <NoScriptMessage toast={actionData?.toast} />
        <PhotoPicker person={profile} img={profile.img} action="/profile/edit" size="md" />
        <Form
          method="post"
          {...getFormProps(form)}
          ref={formRef}
          onChange={(event) => setValues(readDetails(event.currentTarget))}
          className="flex flex-col gap-4"
        >
          <input type="hidden" name="intent" value="update-profile" />
          <div className="grid gap-4 xs:grid-cols-2">
            <ConformField
              meta={fields.firstName}
              label="First name"
              autoComplete="given-name"
              maxLength={MAX_NAME_LENGTH}
            />
            <ConformField
              meta={fields.lastName}
              label="Last name"
              hint="Only your initial is shown."
              autoComplete="family-name"
              maxLength={MAX_NAME_LENGTH}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={bioId} className="text-sm font-medium text-zinc-800">
              Bio
            </label>
            <textarea
              ref={bioRef}
              id={bioId}
              key={fields.bio.key}
              name={fields.bio.name}
              defaultValue={fields.bio.initialValue}
              rows={4}
              maxLength={MAX_BIO_LENGTH}
              aria-invalid={fields.bio.errors ? true : undefined}
              aria-describedby={`${bioId}-count${fields.bio.errors ? ` ${bioId}-error` : ""}`}
              className="resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-base text-zinc-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
            />
            <div className="flex items-start justify-between gap-3">
              <p id={`${bioId}-error`} className="text-sm text-red-600">
                {fields.bio.errors?.[0] ?? ""}
              </p>
              <p id={`${bioId}-count`} className="shrink-0 text-xs text-zinc-500 tabular-nums">
                {values.bio.length} / {MAX_BIO_LENGTH}
              </p>
            </div>
          </div>
          <Button
            type="submit"
            processing={submitting}
            // Before JavaScript runs the server applies the same rules.
            disabled={hydrated && (!changed || !complete)}
            className="self-end min-w-32"
          >
            Save
          </Button>
        </Form>
      </div>
    </section>
  );
}
