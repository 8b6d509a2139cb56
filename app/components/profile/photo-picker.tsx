import { type ChangeEvent, useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { initialsOf } from "~/app/components/ui/avatar";
import { Button, buttonClass } from "~/app/components/ui/button";
import { useToast } from "~/app/components/ui/toaster";
import { useHydrated } from "~/app/lib/hydrated";
import type { ProfileActionData } from "~/app/routes/profile/profile-action.server";
import { MAX_IMAGE_BYTES, PROFILE_PHOTO_ACCEPT } from "~/server/media/limits.shared";
import { PROFILE_MESSAGES } from "~/server/profiles/schemas.shared";

interface PhotoPickerProps {
  person: { firstName: string; lastName: string };
  /** The photo shown now (the large size). */
  img: string | null;
  /** The route whose action takes intent 'upload-photo'. */
  action: string;
  /** Called with the new photo's address once it is stored. */
  onUploaded?(img: string): void;
  /** Size of the preview. */
  size?: "md" | "lg";
}

/**
 * The profile picture and its upload button (spec 1 §2 wizard step 1, /profile/edit).
 * Choosing a file uploads it at once, the button reading 'Processing...' meanwhile.
 * Without JavaScript the file input and an Upload button post the same form.
 */
export function PhotoPicker({ person, img, action, onUploaded, size = "lg" }: PhotoPickerProps) {
  const fetcher = useFetcher<ProfileActionData>();
  const hydrated = useHydrated();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;
  const uploading = fetcher.state !== "idle";

  useEffect(() => {
    const result = fetcher.data;
    if (result?.intent !== "upload-photo") return;
    if (result.toast) toast.show(result.toast);
    if (result.ok && result.img) uploaded.current?.(result.img);
  }, [fetcher.data, toast]);

  function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    const form = event.currentTarget.form;
    if (!file || !form) return;
    // Checked again on the server; here it saves sending 10 MB for nothing.
    if (file.size > MAX_IMAGE_BYTES) {
      toast.show({ message: PROFILE_MESSAGES.photoTooLarge, type: "danger" });
      event.currentTarget.value = "";
      return;
    }
    fetcher.submit(form);
    event.currentTarget.value = "";
  }

  const box = size === "lg" ? "size-32 text-4xl" : "size-24 text-3xl";
  return (
    <fetcher.Form
      method="post"
      encType="multipart/form-data"
      action={action}
      className="flex flex-col items-center gap-4"
    >
      {img ? (
        <img
          src={img}
          alt={`${person.firstName} ${person.lastName}`}
          width={480}
          height={480}
          className={`${box} rounded-full object-cover shadow-sm ring-4 ring-white ${uploading ? "opacity-60" : ""}`}
        />
      ) : (
        <span
          role="img"
          aria-label="No profile picture yet"
          className={`${box} inline-flex items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700 ring-4 ring-white`}
        >
          {initialsOf(person.firstName, person.lastName)}
        </span>
      )}
      <input type="hidden" name="intent" value="upload-photo" />
      <label htmlFor={inputId} className={hydrated ? "sr-only" : "text-sm font-medium text-zinc-800"}>
        Profile picture (PNG, GIF or JPEG)
      </label>
      <input
        ref={input}
        id={inputId}
        name="photo"
        type="file"
        accept={PROFILE_PHOTO_ACCEPT}
        onChange={upload}
        // With JavaScript the button below opens the picker; the input stays for it (and for tests).
        hidden={hydrated}
        className="max-w-full text-sm"
      />
      {hydrated ? (
        <Button variant="secondary" processing={uploading} onClick={() => input.current?.click()}>
          {img ? "Change photo" : "Upload photo"}
        </Button>
      ) : (
        <button type="submit" className={buttonClass("secondary")}>
          Upload photo
        </button>
      )}
    </fetcher.Form>
  );
}
