import { redirect, useNavigate } from "react-router";
import { ComposerPage } from "~/app/components/posts/composer-page";
import { PostComposer } from "~/app/components/posts/post-composer";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell-mode";
import { orNotFound } from "~/app/lib/errors.server";
import { formValues } from "~/app/lib/form.server";
import { getViewer, requireUser } from "~/app/lib/viewer.server";
import { answerPostForm, composerHeaders } from "~/app/routes/posts/composer-action.server";
import { editListing, getListingForEdit } from "~/server/posts/edit-listing";
import { formatPrice } from "~/server/posts/listing.shared";
import { MAX_POST_FILES } from "~/server/posts/schemas";
import type { Route } from "./+types/edit-post";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

// The edit form is the full-page composer (decision 0640): it draws its own frame.
export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Edit Post", matches[0]?.loaderData?.campus) }];
}

/**
 * Decision 0640 '/post/{id}/edit' (protected): the owner's listing as stored, for the composer to
 * start from; anyone else, a comment, a removed post or another campus's: 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireUser(args);
  const { app, campus } = args.context;
  const listing = await orNotFound(
    getListingForEdit(app, viewer, { campusId: campus.id, postId: args.params.id }),
  );
  const price = listing.priceCents;
  return {
    postId: listing.id,
    start: {
      text: listing.text === null ? null : JSON.stringify(listing.text),
      category: listing.category,
      listing: {
        kind: listing.listingKind,
        // The price as typed ('12.50'), without the '$' formatPrice adds; 'Free' is its own choice.
        price: price === null || price === 0 ? "" : formatPrice(price).replace("$", "").replaceAll(",", ""),
        terms: price === 0 ? ("free" as const) : (listing.priceTerms ?? ("" as const)),
        condition: listing.condition ?? ("" as const),
      },
      media: listing.media,
    },
  };
}

export function headers(args: Route.HeadersArgs) {
  return composerHeaders(args);
}

/**
 * Decision 0640: the edit form's multipart body, read as the composer's is (decision 0120: who may
 * not post is answered before the body; files streamed within the caps), with the composer's own
 * schema; editListing answers anyone but the owner 404.
 */
export async function action(args: Route.ActionArgs) {
  const { app, campus } = args.context;
  const viewer = await getViewer(args);
  const postId = args.params.id;
  return answerPostForm(app, args.request, viewer, {
    where: {
      setUpOrigin: "detail",
      postId,
      campus: { id: viewer?.campusId ?? campus.id, generic: campus.generic },
    },
    save: async (input, files, form) => {
      await editListing(app, viewer, postId, {
        campusId: campus.id,
        ...input,
        removeMedia: formValues(form, "removeMedia", MAX_POST_FILES),
        files,
      });
      return { id: postId, rootId: null };
    },
    plainAnswer: () => redirect(`/post/${postId}`),
  });
}

export default function EditPost({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const back = () => navigate(`/post/${loaderData.postId}`);
  return (
    <ComposerPage title="Edit Post">
      <PostComposer variant="page" goBack="detail" onDone={back} edit={loaderData} />
    </ComposerPage>
  );
}
