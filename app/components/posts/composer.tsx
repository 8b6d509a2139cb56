import {
  createContext,
  type FormEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { useHydrated } from "~/app/components/auth/action-feedback";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { SetUpWizardModal } from "~/app/components/profile/set-up-wizard";
import { Avatar } from "~/app/components/ui/avatar";
import { Button } from "~/app/components/ui/button";
import { ArrowLeftIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { useToast } from "~/app/components/ui/toaster";
import { useRootData } from "~/app/lib/root-data";
import { uploadForm } from "~/app/lib/upload";
import { type ParticipationRefusal, participationRefusal } from "~/server/accounts/gates";
import { MAX_POST_CHARACTERS } from "~/server/posts/rich-text";
import { POST_MESSAGES } from "~/server/posts/schemas";
import { CategoryPicker } from "./category-picker";
import type { ComposerActionData } from "./composer-action.server";
import {
  type ComposerGoBack,
  createCommentHref,
  createPostHref,
  goBackFromPath,
  parseGoBack,
  refusalHref,
  schoolPromptHref,
  setUpHrefFor,
  setUpOriginFor,
} from "./composer-targets";
import { type EditorText, EMPTY_EDITOR_TEXT } from "./editor/editor-text";
import { PostEditor, type PostEditorHandle } from "./editor/post-editor";
import { FilePickerButton, FilePreviews, usePickedFiles } from "./file-picker";
import { DiscardPostModal, ProfileIncompleteModal, SchoolPromptModal } from "./post-gate-modals";

/** spec 2 §2, spec 1 §2: above 769 px the composers open in a modal; at 769 px and below they are pages. */
const MODAL_MEDIA_QUERY = "(min-width: 770px)";
/** spec 2 §5, §9: 'Error: Too many characters!' at most every 3 seconds. */
const LIMIT_ALERT_INTERVAL_MS = 3000;
/** A text-only post is sent in a blink: the progress dialog only shows for slower sends. */
const PROGRESS_DELAY_MS = 300;

export function isWideScreen(): boolean {
  return typeof window !== "undefined" && window.matchMedia(MODAL_MEDIA_QUERY).matches;
}

// ---------------------------------------------------------------------------
// The provider: the post composer's modal and the prompts that stand before posting.

export interface OpenPostComposerOptions {
  /** spec 2 §2: the page the full-page composer returns to (home | detail | profile); by default the current page's. */
  goBack?: string;
}

export interface RefusalOrigin {
  goBack?: ComposerGoBack;
  /** The post replied to, for a comment (the set-up wizard returns to it). */
  postId?: string;
}

interface ComposerApi {
  /**
   * Opens the post composer (spec 2 §2): a modal above 769 px, /create/post?goBack=…
   * at 769 px and below. A member who may not post yet gets the prompt instead.
   */
  openPostComposer(options?: OpenPostComposerOptions): void;
  /** Opens what a refusal asks for: the sign-in modal, /verify, the school prompt or the profile modal. */
  showRefusal(refusal: ParticipationRefusal, origin?: RefusalOrigin): void;
}

const ComposerContext = createContext<ComposerApi | null>(null);

export function useComposer(): ComposerApi {
  const api = useContext(ComposerContext);
  if (!api) throw new Error("useComposer used outside <ComposerProvider>");
  return api;
}

type Gate =
  | { kind: "school" }
  | { kind: "profile"; origin: string; postId: string | null; goBack: ComposerGoBack }
  | { kind: "wizard"; origin: string; postId: string | null; goBack: ComposerGoBack };

/** Wraps the app (app/root.tsx): holds the post composer's modal and the posting prompts. */
export function ComposerProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const signIn = useSignInModal();
  const { viewer, campus } = useRootData();
  const [postModal, setPostModal] = useState<{ goBack: ComposerGoBack; key: number } | null>(null);
  const [gate, setGate] = useState<Gate | null>(null);

  const showRefusal = useCallback(
    (refusal: ParticipationRefusal, origin: RefusalOrigin = {}) => {
      const goBack = origin.goBack ?? "home";
      switch (refusal.kind) {
        case "sign-in":
          signIn.open(refusal.reason);
          return;
        case "verify-email":
          navigate("/verify");
          return;
        case "verify-school":
          setGate({ kind: "school" });
          return;
        case "profile-incomplete":
          setGate({
            kind: "profile",
            origin: origin.postId ? "comment" : setUpOriginFor(goBack),
            postId: origin.postId ?? null,
            goBack,
          });
          return;
      }
    },
    [navigate, signIn],
  );

  const openPostComposer = useCallback(
    (options: OpenPostComposerOptions = {}) => {
      const goBack = options.goBack ? parseGoBack(options.goBack) : goBackFromPath(window.location.pathname);
      // spec 2 §5: prompts come before the user starts typing (the server checks again on send).
      const refusal = participationRefusal(viewer, "post");
      if (refusal) {
        showRefusal(refusal, { goBack });
        return;
      }
      if (isWideScreen()) setPostModal({ goBack, key: Date.now() });
      else navigate(createPostHref(goBack));
    },
    [viewer, navigate, showRefusal],
  );

  const api = useMemo<ComposerApi>(
    () => ({ openPostComposer, showRefusal }),
    [openPostComposer, showRefusal],
  );

  return (
    <ComposerContext.Provider value={api}>
      {children}
      {postModal ? (
        <PostComposer
          key={postModal.key}
          variant="modal"
          goBack={postModal.goBack}
          onDone={() => setPostModal(null)}
        />
      ) : null}
      <SchoolPromptModal
        open={gate?.kind === "school"}
        onOpenChange={(open) => {
          if (!open) setGate(null);
        }}
        href={schoolPromptHref(viewer?.campusId ?? campus.id, campus.generic)}
      />
      <ProfileIncompleteModal
        open={gate?.kind === "profile"}
        onOpenChange={(open) => {
          if (!open) setGate(null);
        }}
        setUpHref={gate?.kind === "profile" ? setUpHrefFor(gate.origin, gate.postId) : "/profile/set-up"}
        onSetUp={() => {
          if (gate?.kind !== "profile") return;
          // spec 1 §2: the wizard is a modal on wide screens, the page /profile/set-up at 769 px and below.
          if (isWideScreen()) {
            setGate({ ...gate, kind: "wizard" });
          } else {
            setGate(null);
            navigate(setUpHrefFor(gate.origin, gate.postId));
          }
        }}
      />
      <SetUpWizardModal
        open={gate?.kind === "wizard"}
        onOpenChange={(open) => {
          if (!open) setGate(null);
        }}
        origin={gate?.kind === "wizard" ? gate.origin : null}
        postId={gate?.kind === "wizard" ? gate.postId : null}
        onFinish={() => {
          // 'Continue Posting': back to the composer the profile modal stood before.
          if (gate?.kind === "wizard" && !gate.postId) setPostModal({ goBack: gate.goBack, key: Date.now() });
          setGate(null);
        }}
      />
    </ComposerContext.Provider>
  );
}

// ---------------------------------------------------------------------------
// The draft: editor text, files, category, sending.

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

interface DraftOptions {
  /** The page whose action receives the draft: /create/post or /create/comment/{id}. */
  actionPath: string;
  withCategory: boolean;
  refusalOrigin: RefusalOrigin;
}

/** spec 2 §4 'Composer': empty → has text or files → processing → cleared. */
function useDraft({ actionPath, withCategory, refusalOrigin }: DraftOptions) {
  const toast = useToast();
  const navigate = useNavigate();
  const { showRefusal } = useComposer();
  const alertLimit = useLimitAlert();
  const editor = useRef<PostEditorHandle>(null);
  const [text, setText] = useState<EditorText>(EMPTY_EDITOR_TEXT);
  const picked = usePickedFiles();
  const [category, setCategory] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const files = picked.files;
  const dirty = text.json !== null || files.length > 0 || category !== null;
  // spec 2 §5: 'A post needs text in the first block or at least one file'.
  const sendable = text.hasText || files.length > 0;

  const chooseFiles = (chosen: File[]) => {
    const refusal = picked.add(chosen);
    if (refusal) toast.show(refusal);
  };

  const clear = () => {
    editor.current?.clear();
    setText(EMPTY_EDITOR_TEXT);
    picked.clear();
    setCategory(null);
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
    chooseFiles,
    removeFile: picked.remove,
    category,
    setCategory,
    processing,
    progress,
    dirty,
    sendable,
    alertLimit,
    clear,
    send,
  };
}

type Draft = ReturnType<typeof useDraft>;

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
function UploadProgressModal({ processing, progress }: { processing: boolean; progress: number | null }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!processing) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [processing]);
  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <Modal
      open={processing && shown}
      onOpenChange={() => {}}
      title="Uploading Post..."
      hideClose
      dismissible={false}
    >
      <div className="flex flex-col gap-2" aria-live="polite">
        {percent !== null ? (
          <p className="text-sm text-zinc-700">
            Uploading Photos... <span className="tabular-nums">{percent}%</span>
          </p>
        ) : null}
        <div
          role="progressbar"
          aria-label="Upload progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
        >
          <div
            className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? "w-1/3 animate-pulse" : ""}`}
            style={percent === null ? undefined : { width: `${percent}%` }}
          />
        </div>
      </div>
    </Modal>
  );
}

/** The parts every composer shows: the editor beside the avatar, the previews, and the tool row. */
function DraftFields({
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
      <FilePreviews files={draft.files} onRemove={draft.removeFile} disabled={draft.processing} />
      {compact ? null : (
        <div className="mt-2 flex justify-end">
          <Counter id={counterId} characters={draft.text.characters} />
        </div>
      )}
      <div
        className={`flex items-center justify-between gap-2 border-t border-zinc-100 pt-2 ${compact ? "mt-2" : "mt-1"}`}
      >
        <div className="flex min-w-0 flex-1 items-center gap-1 overflow-hidden">
          <FilePickerButton
            heldCount={draft.files.length}
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
// The post composer.

export interface PostComposerProps {
  /** 'modal' above 769 px (opened by the provider); 'page' for /create/post. */
  variant: "modal" | "page";
  /** spec 2 §2: home | detail | profile. */
  goBack?: string;
  /** Called after the post was sent or the draft discarded / closed: close the modal, leave the page. */
  onDone?(): void;
  /** The page's category from the full-page category picker (/create/categories). */
  initialCategory?: string | null;
}

/**
 * spec 2 §2, §4, §5: the post composer — 'What are you selling?', the 'n / 500'
 * counter, photos and videos, a category; 'Posted! Your post was sent.' with a
 * link to the post, or the refusal's prompt or message with the draft kept.
 */
export function PostComposer({ variant, goBack, onDone, initialCategory = null }: PostComposerProps) {
  const parsedGoBack = parseGoBack(goBack);
  const toast = useToast();
  const revalidator = useRevalidator();
  const draft = useDraft({
    actionPath: createPostHref(parsedGoBack),
    withCategory: true,
    refusalOrigin: { goBack: parsedGoBack },
  });
  const [discarding, setDiscarding] = useState(false);
  const setCategory = draft.setCategory;
  useEffect(() => {
    if (initialCategory) setCategory(initialCategory);
  }, [initialCategory, setCategory]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sent = await draft.send();
    if (!sent) return;
    // spec 2 §4: success clears the editor, files, previews and category, and closes.
    draft.clear();
    toast.show({
      message: POST_MESSAGES.posted,
      type: "okay",
      link: { to: `/post/${sent.postId}`, label: "View" },
    });
    void revalidator.revalidate();
    onDone?.();
  };

  /** Closing a draft with something in it asks first (spec 2 §2 'Discard Post?'). */
  const requestClose = () => {
    if (draft.processing) return;
    if (draft.dirty) setDiscarding(true);
    else onDone?.();
  };

  const form = (
    <form onSubmit={onSubmit} aria-label="Create Post" noValidate>
      <DraftFields
        draft={draft}
        placeholder="What are you selling?"
        label="Post text"
        autoFocus
        minHeightClass={variant === "page" ? "min-h-40" : "min-h-28"}
        withCategory
        submitLabel="Post"
      />
    </form>
  );

  const dialogs = (
    <>
      <DiscardPostModal
        open={discarding}
        onKeepWriting={() => setDiscarding(false)}
        onDiscard={() => {
          draft.clear();
          setDiscarding(false);
          onDone?.();
        }}
      />
      <UploadProgressModal processing={draft.processing} progress={draft.progress} />
    </>
  );

  if (variant === "modal") {
    return (
      <>
        <Modal
          open
          onOpenChange={(open) => {
            if (!open) requestClose();
          }}
          title="Create Post"
        >
          {form}
        </Modal>
        {dialogs}
      </>
    );
  }

  return (
    <div className="flex flex-col">
      <div className="sticky top-0 z-10 -mx-4 mb-4 flex items-center gap-2 border-b border-zinc-200 bg-white/95 px-2 py-2 backdrop-blur-md">
        <button
          type="button"
          onClick={requestClose}
          className="flex size-10 items-center justify-center rounded-full text-zinc-800 hover:bg-zinc-200/60"
        >
          <ArrowLeftIcon className="size-5" />
          <span className="sr-only">Back</span>
        </button>
        <h1 className="text-lg font-bold text-zinc-900">Create Post</h1>
      </div>
      {form}
      {dialogs}
    </div>
  );
}

// ---------------------------------------------------------------------------
// The comment composer.

export interface CommentComposerProps {
  /** The parent: a post or a comment. */
  postId: string;
  autoFocus?: boolean;
  /** After 'Your reply was sent': the new comment and its thread's post. */
  onSent?(sent: { id: string; rootId: string }): void;
  /** One line with a small avatar (replies inside a thread). */
  compact?: boolean;
}

/**
 * spec 2 §2, §5: 'Write a comment...' with the same 500 rule; 'Your reply was
 * sent'. Members who may not comment yet see the box as a button that opens
 * their prompt (the sign-in modal with reason 'comment', the school prompt…).
 * Before the script runs, the box is a link to the full-page composer.
 */
export function CommentComposer({
  postId,
  autoFocus = false,
  onSent,
  compact = false,
}: CommentComposerProps) {
  const { viewer, campus } = useRootData();
  const { showRefusal } = useComposer();
  const hydrated = useHydrated();
  const refusal = participationRefusal(viewer, "comment");
  if (!hydrated || refusal) {
    const href = refusal
      ? refusalHref(refusal, {
          campusId: viewer?.campusId ?? campus.id,
          generic: campus.generic,
          setUpOrigin: "comment",
          postId,
        })
      : createCommentHref(postId);
    return (
      <Link
        to={href}
        onClick={(event) => {
          if (!refusal || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          showRefusal(refusal, { postId });
        }}
        className={`flex items-center gap-3 rounded-2xl border border-zinc-200 bg-white hover:border-zinc-300 ${compact ? "p-2" : "p-3"}`}
      >
        <Avatar person={viewer} size={compact ? "sm" : "md"} />
        <span className="min-w-0 flex-1 truncate text-[15px] text-zinc-500">Write a comment...</span>
      </Link>
    );
  }
  return <CommentForm postId={postId} autoFocus={autoFocus} onSent={onSent} compact={compact} />;
}

function CommentForm({ postId, autoFocus = false, onSent, compact = false }: CommentComposerProps) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const draft = useDraft({
    actionPath: createCommentHref(postId),
    withCategory: false,
    refusalOrigin: { postId },
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sent = await draft.send();
    if (!sent) return;
    draft.clear();
    toast.show({ message: POST_MESSAGES.replySent, type: "okay" });
    void revalidator.revalidate();
    onSent?.({ id: sent.postId, rootId: sent.rootId ?? postId });
  };

  return (
    <form
      onSubmit={onSubmit}
      aria-label="Write a comment"
      noValidate
      className={`rounded-2xl border border-zinc-200 bg-white ${compact ? "p-2" : "p-3"}`}
    >
      <DraftFields
        draft={draft}
        placeholder="Write a comment..."
        label="Comment text"
        autoFocus={autoFocus}
        minHeightClass={compact ? "min-h-7" : "min-h-14"}
        compact={compact}
        withCategory={false}
        submitLabel="Reply"
      />
      <UploadProgressModal processing={draft.processing} progress={draft.progress} />
    </form>
  );
}
