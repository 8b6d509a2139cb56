import { useCallback, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Avatar } from "~/app/components/ui/avatar";
import { Button } from "~/app/components/ui/button";
import { useToast } from "~/app/components/ui/toaster";
import { useRootData } from "~/app/lib/root-data";
import { uploadForm } from "~/app/lib/upload";
import type { ComposerActionData } from "~/app/routes/posts/composer-action.server";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { MAX_POST_CHARACTERS } from "~/server/posts/rich-text.shared";
import { CategoryPicker } from "./category-picker";
import { type RefusalOrigin, useComposer } from "./composer-context";
import { type EditorText, EMPTY_EDITOR_TEXT } from "./editor/editor-text";
import { PostEditor, type PostEditorHandle } from "./editor/post-editor";
import { checkFileChoice, FilePickerButton, FilePreviews, usePickedFiles } from "./file-picker";
import {
  appendListingDraft,
  EMPTY_LISTING_DRAFT,
  isEmptyListingDraft,
  type ListingDraft,
  ListingFields,
} from "./listing-fields";

// The draft both composers hold: editor text, files, category, listing details (decision 0170), sending.

/** spec 2 §5, §9: 'Error: Too many characters!' at most every 3 seconds. */
const LIMIT_ALERT_INTERVAL_MS = 3000;

function useLimitAlert() {
  const toast = useToast();
  const last = useRef(Number.NEGATIVE_INFINITY);
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < LIMIT_ALERT_INTERVAL_MS) return;
    last.current = now;
    toast.show({ message: POST_MESSAGES.tooManyCharacters, type: "danger" });
  }, [toast]);
}

type Sent = Extract<ComposerActionData, { ok: true }>;

/** Decision 0640: what an edit starts from — the listing as stored, its photos kept until removed. */
export interface DraftStart {
  text: string | null;
  category: string | null;
  listing: ListingDraft;
  media: readonly { id: string; url: string; kind: "image" | "video" }[];
}

interface DraftOptions {
  /** The page whose action receives the draft: /create/post, /create/comment/{id} or /post/{id}/edit. */
  actionPath: string;
  withCategory: boolean;
  refusalOrigin: RefusalOrigin;
  start?: DraftStart;
}

/** spec 2 §4 'Composer': empty → has text or files → processing → cleared. */
export function useDraft({ actionPath, withCategory, refusalOrigin, start }: DraftOptions) {
  const toast = useToast();
  const navigate = useNavigate();
  const { showRefusal } = useComposer();
  const alertLimit = useLimitAlert();
  const editor = useRef<PostEditorHandle>(null);
  const [text, setText] = useState<EditorText>(EMPTY_EDITOR_TEXT);
  const picked = usePickedFiles();
  const [category, setCategory] = useState<string | null>(start?.category ?? null);
  const [listing, setListing] = useState<ListingDraft>(start?.listing ?? EMPTY_LISTING_DRAFT);
  const [kept, setKept] = useState(start?.media ?? []);
  const [processing, setProcessing] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const files = picked.files;
  // An edit left unsaved leaves the listing as it was: nothing to discard.
  const dirty = start
    ? false
    : text.json !== null || files.length > 0 || category !== null || !isEmptyListingDraft(listing);
  // spec 2 §5: 'A post needs text in the first block or at least one file' (kept ones count on an edit).
  const sendable = text.hasText || files.length + kept.length > 0;

  const chooseFiles = (chosen: File[]) => {
    // Decision 0640: an edit's kept photos count toward the 10.
    const refusal = checkFileChoice(files.length + kept.length, chosen) ?? picked.add(chosen);
    if (refusal) toast.show(refusal);
  };

  const removeFile = (id: string) => {
    if (kept.some((file) => file.id === id)) setKept(kept.filter((file) => file.id !== id));
    else picked.remove(id);
  };

  const clear = () => {
    editor.current?.clear();
    setText(EMPTY_EDITOR_TEXT);
    picked.clear();
    setCategory(null);
    setListing(EMPTY_LISTING_DRAFT);
  };

  /** Sends the draft; resolves with the answer on success, null after showing why not. */
  const send = async (): Promise<Sent | null> => {
    if (processing) return null;
    if (text.overLimit) {
      alertLimit();
      return null;
    }
    if (!sendable) return null;
    const form = new FormData();
    // First, before the files: a refused upload is answered from the fields ahead of them (decision 0120).
    form.set("enhanced", "1");
    if (text.json) form.set("text", text.json);
    if (withCategory && category) form.set("category", category);
    // Decision 0170: a post's listing details (comments have none).
    if (withCategory) appendListingDraft(form, listing);
    // Decision 0640: the stored photos the edit takes away.
    for (const media of start?.media ?? []) {
      if (!kept.some((file) => file.id === media.id)) form.append("removeMedia", media.id);
    }
    for (const { file } of files) form.append("files", file, file.name);
    setProcessing(true);
    setProgress(files.length > 0 ? 0 : null);
    try {
      const result = await uploadForm<ComposerActionData>(actionPath, form, {
        onProgress: files.length > 0 ? ({ fraction }) => setProgress(fraction) : undefined,
      });
      if (result.kind === "redirect") {
        navigate(result.location);
        return null;
      }
      const answer = result.kind === "data" ? result.data : null;
      if (answer?.ok) return answer;
      if (answer?.refusal) {
        showRefusal(answer.refusal, refusalOrigin);
        return null;
      }
      // spec 2 §4: failure keeps everything typed.
      toast.show(answer?.toast ?? { message: POST_MESSAGES.somethingWentWrong, type: "danger" });
      return null;
    } catch {
      toast.show({ message: POST_MESSAGES.somethingWentWrong, type: "danger" });
      return null;
    } finally {
      setProcessing(false);
      setProgress(null);
    }
  };

  return {
    editor,
    text,
    setText,
    files,
    kept,
    start,
    chooseFiles,
    removeFile,
    category,
    setCategory,
    listing,
    setListing,
    processing,
    progress,
    dirty,
    sendable,
    alertLimit,
    clear,
    send,
  };
}

export type Draft = ReturnType<typeof useDraft>;

function Counter({ id, characters }: { id: string; characters: number }) {
  const full = characters >= MAX_POST_CHARACTERS;
  return (
    <p id={id} className={`text-sm tabular-nums ${full ? "font-semibold text-red-700" : "text-zinc-500"}`}>
      {characters} / {MAX_POST_CHARACTERS}
      <span className="sr-only"> characters</span>
    </p>
  );
}

/** spec 2 §2: 'Uploading Post...', and with files 'Uploading Photos...' with a percentage. */
/** The parts every composer shows: the editor beside the avatar, the previews, and the tool row. */
export function DraftFields({
  draft,
  placeholder,
  label,
  autoFocus,
  minHeightClass,
  compact = false,
  withCategory,
  submitLabel,
}: {
  draft: Draft;
  placeholder: string;
  label: string;
  autoFocus: boolean;
  minHeightClass: string;
  compact?: boolean;
  withCategory: boolean;
  submitLabel: string;
}) {
  const { viewer } = useRootData();
  const counterId = useId();
  return (
    <>
      <div className="flex items-start gap-3">
        <Avatar person={viewer} size={compact ? "sm" : "md"} className="mt-0.5" />
        <div className="min-w-0 flex-1 pt-1.5">
          <PostEditor
            handleRef={draft.editor}
            initialState={draft.start?.text ?? null}
            placeholder={placeholder}
            label={label}
            describedBy={counterId}
            autoFocus={autoFocus}
            minHeightClass={minHeightClass}
            onChange={draft.setText}
            onLimitExceeded={draft.alertLimit}
          />
        </div>
      </div>
      <FilePreviews
        files={[...draft.kept, ...draft.files]}
        onRemove={draft.removeFile}
        disabled={draft.processing}
      />
      {compact ? null : (
        <div className="mt-2 flex justify-end">
          <Counter id={counterId} characters={draft.text.characters} />
        </div>
      )}
      {withCategory ? (
        <ListingFields value={draft.listing} onChange={draft.setListing} disabled={draft.processing} />
      ) : null}
      <div
        className={`flex items-center justify-between gap-2 border-t border-zinc-100 pt-2 ${compact ? "mt-2" : "mt-1"}`}
      >
        <div className="flex min-w-0 flex-1 items-center gap-1 overflow-hidden">
          <FilePickerButton
            heldCount={draft.files.length + draft.kept.length}
            onChoose={draft.chooseFiles}
            disabled={draft.processing}
            compact={compact}
          />
          {withCategory ? (
            <CategoryPicker value={draft.category} onChange={draft.setCategory} disabled={draft.processing} />
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-3">
          {compact ? <Counter id={counterId} characters={draft.text.characters} /> : null}
          <Button
            type="submit"
            processing={draft.processing}
            disabled={!draft.sendable}
            className={compact ? "px-4 py-2" : ""}
          >
            {submitLabel}
          </Button>
        </div>
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------
