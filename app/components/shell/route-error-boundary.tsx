import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useRevalidator, useRouteError, useRouteLoaderData } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import type { loader as rootLoader } from "~/app/root";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";

/**
 * The look of a page that stands in for its route's content (the /404 page's, spec 1 §2):
 * the campus's logo, a title, a line of text and what the user can do next. It renders
 * inside the shell, so the header and navigation stay usable (decision 0140).
 */
export function ErrorPanel({
  titleId,
  title,
  children,
  actions,
}: {
  titleId: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  // Read softly: a boundary must render even when the root's data is missing.
  const campus = useRouteLoaderData<typeof rootLoader>("root")?.campus;
  return (
    <section
      aria-labelledby={titleId}
      className="mt-4 rounded-2xl border border-zinc-200 bg-white px-6 py-12 text-center md:mt-8 md:py-16"
    >
      {campus?.logo ? (
        <img
          src={campus.logo}
          alt={`${campus.name} logo`}
          width={80}
          height={80}
          className="mx-auto size-20 rounded-2xl shadow-sm"
        />
      ) : null}
      <h1 id={titleId} className="mt-6 text-3xl font-extrabold tracking-tight text-zinc-950">
        {title}
      </h1>
      <p className="mx-auto mt-3 max-w-sm text-base text-zinc-600">{children}</p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{actions}</div>
    </section>
  );
}

/** spec 1 §2 /404: 'Error 404', 'This page doesn't exist. Try searching for something else.', 'Go To Feed'. */
export const NOT_FOUND_TEXT = "This page doesn't exist. Try searching for something else.";

/** The way home from every error panel. */
export function GoToFeed() {
  return (
    <Link to="/home" className={buttonClass("primary", "h-11 px-7")}>
      Go To Feed
    </Link>
  );
}

/** An error's status and the message its response carries, if it is one the user may read. */
function readError(error: unknown): { status: number; message: string | null } {
  if (isRouteErrorResponse(error)) {
    return {
      status: error.status,
      message: typeof error.data === "string" && error.data ? error.data : null,
    };
  }
  return { status: 500, message: null };
}

function RetryButton() {
  const revalidator = useRevalidator();
  return (
    <button
      type="button"
      className={buttonClass("secondary", "h-11 px-7")}
      disabled={revalidator.state !== "idle"}
      onClick={() => revalidator.revalidate()}
    >
      Try again
    </button>
  );
}

/**
 * Every route module's ErrorBoundary (decision 0140; docs/architecture.md rule 5):
 * an error in one page answers in that page's panel, never blanking the shell. Status-aware:
 * 404 → the /404 page's texts with a way home; 403 → the refusal's message (or a general
 * one); anything else → its message, or 'Something went wrong' for an unexpected error
 * (never its own text), with a retry that loads the page's data again.
 *
 * Route modules re-export it as their ErrorBoundary. React Router's build wraps (and hands
 * `error` to) only an ErrorBoundary a route module defines itself, so a re-exported one gets no
 * props and reads the error from the router; tests and wrappers pass it.
 */
export function RouteErrorBoundary(props: { error?: unknown }) {
  return props.error === undefined ? <ErrorFromRouter /> : <ErrorAnswer error={props.error} />;
}

function ErrorFromRouter() {
  return <ErrorAnswer error={useRouteError()} />;
}

function ErrorAnswer({ error }: { error: unknown }) {
  const { status, message } = readError(error);
  if (status === 404) {
    return (
      <ErrorPanel titleId="route-error-title" title="Error 404" actions={<GoToFeed />}>
        {NOT_FOUND_TEXT}
      </ErrorPanel>
    );
  }
  if (status === 403) {
    return (
      <ErrorPanel titleId="route-error-title" title="Error 403" actions={<GoToFeed />}>
        {message ?? "You don't have access to this page."}
      </ErrorPanel>
    );
  }
  return (
    <ErrorPanel
      titleId="route-error-title"
      title={message ?? SOMETHING_WENT_WRONG}
      actions={
        <>
          <RetryButton />
          <GoToFeed />
        </>
      }
    >
      {message
        ? "Try again, or go back to the feed."
        : "An unexpected error occurred. Try again in a moment."}
    </ErrorPanel>
  );
}
