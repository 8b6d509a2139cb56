import { Link } from "react-router";
import { ChosenMark, categoryItemClass } from "~/app/components/posts/category-picker";
import { createPostHref, parseGoBack } from "~/app/components/posts/composer-targets";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell-mode";
import { ArrowLeftIcon } from "~/app/components/ui/icons";
import { requireUser } from "~/app/lib/viewer.server";
import { ALL_CATEGORIES, CATEGORY_OPTIONS, categoryFilter } from "~/server/posts/categories.shared";
import type { Route } from "./+types/create-categories";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export const handle = { shell: "bare" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Choose a category", matches[0]?.loaderData?.campus) }];
}

/** /create/categories (protected): query goBack and the current category. */
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  const query = new URL(args.request.url).searchParams;
  return { goBack: parseGoBack(query.get("goBack")), category: categoryFilter(query.get("category")) };
}

/**
 * The full-page category picker of narrow screens (spec 2 §2 'Category picker'):
 * each category leads back to /create/post with the choice. (The composer itself
 * opens the same list in a sheet, which keeps a draft's photos.)
 */
export default function CreateCategories({ loaderData }: Route.ComponentProps) {
  const { goBack, category } = loaderData;
  const chosen = category ?? ALL_CATEGORIES.value;
  return (
    <div className="mx-auto min-h-dvh w-full max-w-xl bg-white px-4 pb-10 md:my-8 md:min-h-0 md:rounded-2xl md:border md:border-zinc-200">
      <div className="sticky top-0 z-10 -mx-4 mb-2 flex items-center gap-2 border-b border-zinc-200 bg-white/95 px-2 py-2 backdrop-blur-md">
        <Link
          to={createPostHref(goBack, category)}
          className="flex size-10 items-center justify-center rounded-full text-zinc-800 hover:bg-zinc-200/60"
        >
          <ArrowLeftIcon className="size-5" />
          <span className="sr-only">Back</span>
        </Link>
        <h1 className="text-lg font-bold text-zinc-900">Choose a category</h1>
      </div>
      <ul aria-label="Categories" className="flex flex-col">
        {CATEGORY_OPTIONS.map((option) => (
          <li key={option.value}>
            <Link
              to={createPostHref(goBack, option.value === ALL_CATEGORIES.value ? null : option.value)}
              aria-current={chosen === option.value}
              className={categoryItemClass}
            >
              {option.text}
              {chosen === option.value ? <ChosenMark /> : null}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
