import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { checkFileChoice, fileKind } from "~/app/components/posts/file-picker";
import { SchoolPromptModal } from "~/app/components/posts/post-gate-modals";
import { QuickStarts } from "~/app/components/trade/quick-starts";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { useToast } from "~/app/components/ui/toaster";
import { useAdoptTypedValue } from "~/app/lib/hydrated";
import type { ToastInput } from "~/app/lib/toast";
import type { ParticipationRefusal } from "~/server/accounts/gates.shared";
import { CHAT_MESSAGES, countMessageCharacters, MAX_MESSAGE_CHARACTERS } from "~/server/chats/schemas.shared";
import type { SharedPostCard } from "~/server/chats/shared-posts";
import { POST_FILE_ACCEPT } from "~/server/posts/post-rules.shared";
import { SafetyNudge } from "./safety-nudge";
import { SharedPost } from "./shared-post";

/** spec 2 §9: the character alert is repeated at most every 3 seconds. */
const ALERT_THROTTLE_MS = 3_000;

export interface ComposerActionData {
  ok: boolean;
  intent?: string;
  toast?: ToastInput | null;
  refusal?: ParticipationRefusal;
  /** docs/product/safety.md: the server asks the sender first (Edit / Send anyway). */
  nudge?: { message: string };
}

/**
 * The chat's composer (spec 2 §2 'Say something . . .', §5 'Chat message'): text up to 500
 * characters by the posts' rule with the 'n / 500' counter and 'Error: Too many characters!'
 * (spec 2 §8); one photo; the shared post of a Send Message, sent with the first message.
 * Posts `intent` to `action` as a multipart form (the photo is streamed, decision 0120).
 */
export function MessageComposer({
  action,
  intent,
  hidden,
  sharedPost,
  quickStarts = false,
}: {
  action: string;
  intent: "send-message" | "start-conversation";
  /** Extra fields (the recipient of a new conversation). */
  hidden?: Record<string, string>;
  sharedPost?: SharedPostCard | null;
  /** Decision 0605: a conversation opened from a listing, with no message yet, offers quick starts. */
  quickStarts?: boolean;
}) {
  const fetcher = useFetcher<ComposerActionData>();
  const { show } = useToast();
  const [text, setText] = useState("");
  const typed = text;
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [post, setPost] = useState<SharedPostCard | null>(sharedPost ?? null);
  const [schoolPrompt, setSchoolPrompt] = useState(false);
  const [nudge, setNudge] = useState<{ message: string; text: string } | null>(null);
  const lastAlert = useRef(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const messageField = useRef<HTMLTextAreaElement>(null);
  useAdoptTypedValue(messageField, text, setText);
  const characters = countMessageCharacters(text);
  const sending = fetcher.state !== "idle";
  useActionToast(fetcher.data?.toast);

  const alertTooMany = () => {
    const now = Date.now();
    if (now - lastAlert.current < ALERT_THROTTLE_MS) return;
    lastAlert.current = now;
    show({ message: CHAT_MESSAGES.tooManyCharacters, type: "danger" });
  };

  // A sent message clears the composer; a refusal keeps what was written. Only what was sent is
  // cleared: text typed or a photo picked while it was on its way stays.
  const sent = useRef<{ text: string; photo: File | null; post: SharedPostCard | null } | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      const message = sent.current;
      sent.current = null;
      if (!message) return;
      setText((now) => (now === message.text ? "" : now));
      setPhoto((now) => (now === message.photo ? null : now));
      setPost((now) => (now === message.post ? null : now));
    } else if (fetcher.data.refusal?.kind === "verify-school") {
      setSchoolPrompt(true);
    } else if (fetcher.data.nudge && sent.current) {
      setNudge({ message: fetcher.data.nudge.message, text: sent.current.text });
    }
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    if (!photo) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const [quickStarted, setQuickStarted] = useState(false);
  const submit = (picked?: string, acknowledged = false) => {
    if (sending) return;
    setNudge(null);
    const text = picked ?? typed;
    if (countMessageCharacters(text) > MAX_MESSAGE_CHARACTERS) {
      alertTooMany();
      return;
    }
    if (text.trim() === "" && !photo && !post) return;
    if (picked) setQuickStarted(true);
    const form = new FormData();
    form.set("intent", intent);
    for (const [name, value] of Object.entries(hidden ?? {})) form.set(name, value);
    form.set("text", text);
    if (post) form.set("postId", post.id);
    if (photo) form.set("photo", photo);
    if (acknowledged) form.set("acknowledgedNudge", "1");
    sent.current = { text, photo, post };
    fetcher.submit(form, { method: "post", action, encType: "multipart/form-data" });
  };

  return (
    <div className="border-t border-zinc-200 bg-white px-3 py-2">
      {quickStarts && !quickStarted ? (
        <QuickStarts onPick={(picked) => submit(picked)} disabled={sending} />
      ) : null}
      {post ? (
        <div className="mb-2 flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <SharedPost card={post} />
          </div>
          <button
            type="button"
            onClick={() => setPost(null)}
            className="rounded-full px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100"
          >
            Remove
          </button>
        </div>
      ) : null}
      {preview ? (
        <div className="mb-2 flex items-start gap-2">
          <img src={preview} alt="Attached to your message" className="max-h-24 rounded-lg" />
          <button
            type="button"
            onClick={() => setPhoto(null)}
            className="rounded-full px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100"
          >
            Remove photo
          </button>
        </div>
      ) : null}
      {nudge ? (
        <SafetyNudge
          message={nudge.message}
          onEdit={() => {
            setNudge(null);
            messageField.current?.focus();
          }}
          onSendAnyway={() => submit(nudge.text === typed ? undefined : nudge.text, true)}
        />
      ) : null}
      <form
        method="post"
        action={action}
        encType="multipart/form-data"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="flex items-end gap-2"
      >
        <input type="hidden" name="intent" value={intent} />
        <input
          ref={fileInput}
          type="file"
          name="photo"
          accept={POST_FILE_ACCEPT}
          className="sr-only"
          aria-label="Add a photo"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0] ?? null;
            event.target.value = "";
            if (!file) return;
            // Decision 0456: refused when picked, not on send — the posts' type check (spec 2 §5), then
            // the chat's own 'photos only' (decision 0233); the server checks the bytes again.
            const refusal =
              checkFileChoice(0, [file]) ??
              (fileKind(file) === "video"
                ? { message: CHAT_MESSAGES.noVideos, type: "danger" as const }
                : null);
            if (refusal) {
              show(refusal);
              return;
            }
            setPhoto(file);
          }}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-brand-700 hover:bg-brand-50"
          aria-label="Add a photo"
        >
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            aria-hidden="true"
          >
            <rect x="3" y="5" width="18" height="14" rx="2" />
            <circle cx="8.5" cy="10" r="1.5" />
            <path d="m21 16-5-5-8 8" />
          </svg>
        </button>
        <label className="min-w-0 flex-1">
          <span className="sr-only">Message</span>
          <textarea
            ref={messageField}
            name="text"
            value={text}
            rows={1}
            placeholder={CHAT_MESSAGES.placeholder}
            onChange={(event) => {
              const next = event.target.value;
              // spec 2 §5: typing beyond 500 is blocked with the alert.
              if (countMessageCharacters(next) > MAX_MESSAGE_CHARACTERS && next.length > text.length) {
                alertTooMany();
                return;
              }
              setText(next);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                submit();
              }
            }}
            className="block max-h-32 min-h-10 w-full resize-none rounded-2xl border border-zinc-300 bg-zinc-50 px-3 py-2 text-[15px] focus:border-brand-600 focus:bg-white focus:outline-none"
          />
        </label>
        <button
          type="submit"
          disabled={sending}
          className="h-10 shrink-0 rounded-full bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sending ? "Sending..." : "Send"}
        </button>
      </form>
      <p className="mt-1 text-right text-xs text-zinc-500 tabular-nums" aria-live="polite">
        {characters} / {MAX_MESSAGE_CHARACTERS}
      </p>
      <SchoolPromptModal
        open={schoolPrompt}
        onOpenChange={setSchoolPrompt}
        href="/settings/account/school_email"
      />
    </div>
  );
}
