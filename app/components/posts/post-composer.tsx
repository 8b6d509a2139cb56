import { type FormEvent, useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { ArrowLeftIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { useToast } from "~/app/components/ui/toaster";
import { EDIT_MESSAGES, POST_MESSAGES } from "~/server/posts/post-rules.shared";
import { DraftFields, type DraftStart, useDraft } from "./composer-draft";
import { createPostHref, parseGoBack } from "./composer-targets";
import { DiscardPostModal } from "./post-gate-modals";
import { UploadProgressModal } from "./upload-progress-modal";

export interface PostComposerProps {
  /** 'modal' above 769 px (opened by the provider); 'page' for /create/post. */
  variant: "modal" | "page";
  /** spec 2 §2: home | detail | profile. */
  goBack?: string;
  /** Called after the post was sent or the draft discarded / closed: close the modal, leave the page. */
  onDone?(): void;
  /** The page's category from the full-page category picker (/create/categories). */
  initialCategory?: string | null;
  /** Decision 0640: the same composer edits a listing, starting from what is stored. */
  edit?: { postId: string; start: DraftStart };
}

/**
 * spec 2 §2, §4, §5: the post composer — 'What are you selling?', the 'n / 500'
 * counter, photos and videos, a category; 'Posted! Your post was sent.' with a
 * link to the post, or the refusal's prompt or message with the draft kept.
 */
export function PostComposer({ variant, goBack, onDone, initialCategory = null, edit }: PostComposerProps) {
  const parsedGoBack = parseGoBack(goBack);
  const toast = useToast();
  const revalidator = useRevalidator();
  const draft = useDraft({
    actionPath: edit ? `/post/${edit.postId}/edit` : createPostHref(parsedGoBack),
    withCategory: true,
    refusalOrigin: { goBack: parsedGoBack },
    start: edit?.start,
  });
  const title = edit ? "Edit Post" : "Create Post";
  const [discarding, setDiscarding] = useState(false);
  const setCategory = draft.setCategory;
  useEffect(() => {
    if (initialCategory) setCategory(initialCategory);
  }, [initialCategory, setCategory]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sent = await draft.send();
    if (!sent) return;
    if (edit) {
      toast.show({ message: EDIT_MESSAGES.saved, type: "okay" });
      onDone?.();
      return;
    }
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
    <form onSubmit={onSubmit} aria-label={title} noValidate>
      <DraftFields
        draft={draft}
        placeholder="What are you selling?"
        label="Post text"
        autoFocus
        minHeightClass={variant === "page" ? "min-h-40" : "min-h-28"}
        withCategory
        submitLabel={edit ? "Save" : "Post"}
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
          title={title}
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
        <h1 className="text-lg font-bold text-zinc-900">{title}</h1>
      </div>
      {form}
      {dialogs}
    </div>
  );
}
