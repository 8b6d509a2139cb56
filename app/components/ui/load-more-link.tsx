import { Link, useLocation } from "react-router";
import { pageHref } from "~/app/lib/list-pages";
import { buttonClass } from "./button";

/**
 * 'Load more' under a short keyset list (savers, notifications): a link to the next page
 * that works before the scripts load, and once they have, loads the page in place.
 */
export function LoadMoreLink({
  cursor,
  loading,
  onLoad,
}: {
  cursor: string;
  loading: boolean;
  onLoad: (href: string) => void;
}) {
  const location = useLocation();
  const href = pageHref(location.pathname, location.search, cursor);
  return (
    <div className="flex justify-center py-3">
      <Link
        to={href}
        onClick={(event) => {
          event.preventDefault();
          onLoad(href);
        }}
        aria-disabled={loading}
        className={buttonClass("secondary", "h-11")}
      >
        {loading ? "Loading…" : "Load more"}
      </Link>
    </div>
  );
}
