import { type ChangeEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { CloseIcon } from "~/app/components/ui/icons";
import {
  MAX_POST_FILES,
  MULTI_SELECT_BELOW_FILES,
  POST_FILE_ACCEPT,
  POST_MESSAGES,
} from "~/server/posts/post-rules.shared";

/** A photo or video the composer holds, with the object URL of its preview. */
export interface PickedFile {
  id: string;
  file: File;
  /** An object URL, revoked when the file is removed, the draft cleared or the composer closed. */
  url: string;
  kind: "image" | "video";
}

/** Why a choice of files was refused (spec 2 §5, §8); the composer shows it as a toast. */
export type FileRefusal = { message: string; type: "okay" | "danger" };

const acceptEntries = POST_FILE_ACCEPT.split(",").map((entry) => entry.trim().toLowerCase());
const acceptedExtensions = new Set(
  acceptEntries.filter((entry) => entry.startsWith(".")).map((e) => e.slice(1)),
);
const acceptedMimeTypes = new Set(acceptEntries.filter((entry) => entry.includes("/")));
const videoExtensions = new Set(["mp4", "mov", "avi", "qt"]);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/**
 * spec 2 §5 'Allowed extensions': a first check in the browser, by the type the
 * browser reports or the name's extension. The server decides by the bytes
 * (server/posts/media.ts), so a renamed file is still refused there.
 */
export function isAcceptedFile(file: { name: string; type: string }): boolean {
  return acceptedMimeTypes.has(file.type.toLowerCase()) || acceptedExtensions.has(extensionOf(file.name));
}

export function fileKind(file: { name: string; type: string }): "image" | "video" {
  if (file.type.startsWith("video/")) return "video";
  if (file.type.startsWith("image/")) return "image";
  return videoExtensions.has(extensionOf(file.name)) ? "video" : "image";
}

/**
 * spec 2 §5, in the server's order: more than 10 in total → 'Please choose up to
 * 10 photos.' (okay); any file of another type → 'Only photos & videos are
 * allowed!' (danger). A refused choice adds nothing.
 */
export function checkFileChoice(heldCount: number, chosen: readonly { name: string; type: string }[]) {
  if (heldCount + chosen.length > MAX_POST_FILES) {
    return { message: POST_MESSAGES.tooManyFiles, type: "okay" } satisfies FileRefusal;
  }
  if (!chosen.every(isAcceptedFile)) {
    return { message: POST_MESSAGES.onlyPhotosAndVideos, type: "danger" } satisfies FileRefusal;
  }
  return null;
}

let pickedIds = 0;

/** The files of a draft: adding (with the checks above), removing, clearing; previews are object URLs. */
export function usePickedFiles() {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const held = useRef<PickedFile[]>([]);
  held.current = files;

  // Closing the composer revokes every preview still held.
  useEffect(
    () => () => {
      for (const picked of held.current) URL.revokeObjectURL(picked.url);
    },
    [],
  );

  const add = useCallback((chosen: readonly File[]): FileRefusal | null => {
    const refusal = checkFileChoice(held.current.length, chosen);
    if (refusal) return refusal;
    const added = chosen.map((file) => ({
      id: `file-${++pickedIds}`,
      file,
      url: URL.createObjectURL(file),
      kind: fileKind(file),
    }));
    held.current = [...held.current, ...added];
    setFiles(held.current);
    return null;
  }, []);

  const remove = useCallback((id: string) => {
    const gone = held.current.find((picked) => picked.id === id);
    if (gone) URL.revokeObjectURL(gone.url);
    held.current = held.current.filter((picked) => picked.id !== id);
    setFiles(held.current);
  }, []);

  const clear = useCallback(() => {
    for (const picked of held.current) URL.revokeObjectURL(picked.url);
    held.current = [];
    setFiles([]);
  }, []);

  return { files, add, remove, clear };
}

function PhotoIcon({ className = "" }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <rect x="3" y="3" width="18" height="18" rx="2" />
      <circle cx="9" cy="9" r="2" />
      <path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21" />
    </svg>
  );
}

/**
 * The 'add photos' button: a file input accepting spec 2 §5's types, multiple
 * selection only while fewer than 3 files are held (MULTI_SELECT_BELOW_FILES).
 */
export function FilePickerButton({
  heldCount,
  onChoose,
  disabled = false,
  compact = false,
}: {
  heldCount: number;
  onChoose(files: File[]): void;
  disabled?: boolean;
  /** Icon only (the comment composer). */
  compact?: boolean;
}) {
  const inputId = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.currentTarget.files ?? []);
    // The same file can be chosen again after it was removed.
    event.currentTarget.value = "";
    if (chosen.length > 0) onChoose(chosen);
  };
  return (
    <>
      <input
        id={inputId}
        type="file"
        accept={POST_FILE_ACCEPT}
        multiple={heldCount < MULTI_SELECT_BELOW_FILES}
        disabled={disabled}
        onChange={onChange}
        className="peer sr-only"
      />
      <label
        htmlFor={inputId}
        title="Add photos or videos"
        className={`inline-flex min-w-0 shrink cursor-pointer items-center gap-2 rounded-full p-2 text-sm font-semibold text-brand-600 hover:bg-brand-50 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:opacity-50 ${compact ? "" : "xs:px-3"}`}
      >
        <PhotoIcon className="size-6 shrink-0" />
        <span className={compact ? "sr-only" : "sr-only truncate xs:not-sr-only"}>Photo/Video</span>
      </label>
    </>
  );
}

/** The previews of the held files, each with a remove button; videos play muted (spec 2 §5). */
export function FilePreviews({
  files,
  onRemove,
  disabled = false,
}: {
  /** Picked files, and on an edit the listing's kept photos before them (decision 0640). */
  files: readonly Pick<PickedFile, "id" | "url" | "kind">[];
  onRemove(id: string): void;
  disabled?: boolean;
}) {
  if (files.length === 0) return null;
  const total = files.length;
  return (
    <ul aria-label="Chosen photos and videos" className="mt-3 grid grid-cols-3 gap-2 xs:grid-cols-4">
      {files.map((picked, index) => {
        const name = `${picked.kind === "video" ? "Video" : "Photo"} ${index + 1} of ${total}`;
        return (
          <li key={picked.id} className="relative aspect-square overflow-hidden rounded-xl bg-zinc-100">
            {picked.kind === "video" ? (
              <video
                src={picked.url}
                muted
                playsInline
                preload="metadata"
                aria-label={name}
                className="size-full object-cover"
              />
            ) : (
              <img src={picked.url} alt={name} className="size-full object-cover" />
            )}
            <button
              type="button"
              disabled={disabled}
              onClick={() => onRemove(picked.id)}
              className="absolute top-1 right-1 flex size-7 items-center justify-center rounded-full bg-zinc-900/75 text-white hover:bg-zinc-900 disabled:opacity-50"
            >
              <CloseIcon className="size-4" strokeWidth={2.5} />
              <span className="sr-only">Remove {name}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
