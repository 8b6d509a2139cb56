import { useEffect } from "react";
import { redirect, useLocation, useNavigate } from "react-router";
import { useComposer } from "~/app/components/posts/composer-context";
import { ComposerPage } from "~/app/components/posts/composer-page";
import { goBackTarget, parseGoBack, setUpOriginFor } from "~/app/components/posts/composer-targets";
import { PlainComposerForm } from "~/app/components/posts/plain-composer-form";
import { PostComposer } from "~/app/components/posts/post-composer";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell-mode";
import { backStep, loadHistory, saveHistory } from "~/app/lib/navigation-history";
import { useRootData } from "~/app/lib/root-data";
import { getViewer, requireUser } from "~/app/lib/viewer.server";
import { answerPostForm, composerHeaders } from "~/app/routes/posts/composer-action.server";
import { participationRefusal } from "~/server/accounts/gates.shared";
import { categoryFilter } from "~/server/posts/categories.shared";
import { createPost } from "~/server/posts/posts";
import type { Route } from "./+types/create-post";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

// The full-page composer draws its own frame (spec 2 §2 'Mobile: /create/post?goBack={page}').
export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Create Post", matches[0]?.loaderData?.campus) }];
}

/** /create/post (protected): query goBack (home | detail | profile) and category (from /create/categories). */
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  const query = new URL(args.request.url).searchParams;
  return { goBack: parseGoBack(query.get("goBack")), category: categoryFilter(query.get("category")) };
}

export function headers(args: Route.HeadersArgs) {
  return composerHeaders(args);
}

/**
 * spec 2 §4, §5: creates a post from the composer's multipart form (fields
 * `text` — the Lexical state as JSON — or `plainText`, `category`, `files`).
 * The composer's script gets { ok, postId } or the refusal as data; a plain
 * form is redirected to the feed with 'Your post was sent' (or to the page a
 * gate asks for), or shown its error.
 */
export async function action(args: Route.ActionArgs) {
  const { app, campus } = args.context;
  const viewer = await getViewer(args);
  const goBack = parseGoBack(new URL(args.request.url).searchParams.get("goBack"));
  const where = {
    setUpOrigin: setUpOriginFor(goBack),
    campus: { id: viewer?.campusId ?? campus.id, generic: campus.generic },
  };
  return answerPostForm(app, args.request, viewer, {
    where,
    save: async (input, files) => {
      const { id } = await createPost(app, viewer, { campusId: campus.id, ...input, files });
      return { id, rootId: null };
    },
    plainAnswer: () => redirect("/home?filter=notify-posted"),
  });
}

export default function CreatePost({ loaderData, actionData }: Route.ComponentProps) {
  const { goBack, category } = loaderData;
  const navigate = useNavigate();
  const location = useLocation();
  const { viewer } = useRootData();
  const { showRefusal } = useComposer();

  // spec 2 §5: a member who may not post yet is prompted on arrival, before typing.
  useEffect(() => {
    const refusal = participationRefusal(viewer, "post");
    if (refusal) showRefusal(refusal, { goBack });
  }, [viewer, goBack, showRefusal]);

  // spec 2 §2: goBack decides where Back and Done lead; 'detail' is the page the composer came from.
  const leave = () => {
    const target = goBackTarget(goBack);
    if (target) {
      navigate(target);
      return;
    }
    const back = backStep(loadHistory(), `${location.pathname}${location.search}`);
    saveHistory(back.history);
    navigate(back.target);
  };

  return (
    <ComposerPage
      title="Create Post"
      plain={
        <PlainComposerForm
          kind="post"
          category={category}
          backHref={goBackTarget(goBack) ?? "/home"}
          toast={actionData && !actionData.ok ? actionData.toast : null}
        />
      }
    >
      <PostComposer variant="page" goBack={goBack} onDone={leave} initialCategory={category} />
    </ComposerPage>
  );
}
