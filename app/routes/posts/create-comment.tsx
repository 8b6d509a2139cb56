import { useEffect } from "react";
import { useNavigate } from "react-router";
import { CommentComposer } from "~/app/components/posts/comment-composer";
import { PlainComposerForm } from "~/app/components/posts/plain-composer-form";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell-mode";
import { BackButton } from "~/app/components/ui/back-button";
import { useHydrated } from "~/app/lib/hydrated";
import { redirectWithToast } from "~/app/lib/toast.server";
import { getViewer, requireUser } from "~/app/lib/viewer.server";
import { isWideScreen } from "~/app/lib/wide-screen";
import { answerComposerForm, composerHeaders, formText } from "~/app/routes/posts/composer-action.server";
import { createComment } from "~/server/posts/comments";
import { commentFormSchema, POST_MESSAGES } from "~/server/posts/schemas";
import type { Route } from "./+types/create-comment";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

// The full-page comment composer draws its own frame (spec 2 §2 'Mobile: /create/comment/{postId}').
export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Write a comment", matches[0]?.loaderData?.campus) }];
}

/** /create/comment/:postId (protected). */
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return { postId: args.params.postId };
}

export function headers(args: Route.HeadersArgs) {
  return composerHeaders(args);
}

/**
 * spec 2 §4 'Comments and replies': a reply to the post or comment `postId`
 * (fields `text` or `plainText`, `files`). The composer's script gets
 * { ok, postId, rootId } or the refusal; a plain form goes to the thread with
 * 'Your reply was sent'.
 */
export async function action(args: Route.ActionArgs) {
  const { app, campus } = args.context;
  const viewer = await getViewer(args);
  const postId = args.params.postId;
  const where = {
    setUpOrigin: "comment",
    postId,
    campus: { id: viewer?.campusId ?? campus.id, generic: campus.generic },
  };
  return answerComposerForm(app, args.request, viewer, {
    action: "comment",
    where,
    schema: commentFormSchema,
    fields: (form) => ({ text: formText(form) }),
    create: (input, files) => createComment(app, viewer, { postId, text: input.text, files }),
    plainAnswer: ({ rootId }) =>
      redirectWithToast(`/post/${encodeURIComponent(rootId)}`, {
        message: POST_MESSAGES.replySent,
        type: "okay",
      }),
  });
}

export default function CreateComment({ loaderData, actionData }: Route.ComponentProps) {
  const { postId } = loaderData;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const postHref = `/post/${encodeURIComponent(postId)}`;

  // spec 2 §2: 'Wide screens redirect the comment page to /post/{id}'.
  useEffect(() => {
    if (isWideScreen()) navigate(postHref, { replace: true });
  }, [navigate, postHref]);

  return (
    <div className="mx-auto min-h-dvh w-full max-w-xl bg-white px-4 pb-10">
      <div className="sticky top-0 z-10 -mx-4 mb-4 flex items-center gap-2 border-b border-zinc-200 bg-white/95 px-2 py-2 backdrop-blur-md">
        <BackButton />
        <h1 className="text-lg font-bold text-zinc-900">Write a comment</h1>
      </div>
      {hydrated ? (
        <CommentComposer
          postId={postId}
          autoFocus
          onSent={({ rootId }) => navigate(`/post/${encodeURIComponent(rootId)}`)}
        />
      ) : (
        <PlainComposerForm
          kind="comment"
          backHref={postHref}
          toast={actionData && !actionData.ok ? actionData.toast : null}
        />
      )}
    </div>
  );
}
