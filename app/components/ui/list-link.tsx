import { type AnchorHTMLAttributes, useEffect } from "react";
import { useNavigate } from "react-router";

/** The links useListLinkNavigation follows inside the app (ListLink's mark). */
const LIST_LINKS = "a[data-list-link]";

interface ListLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** An address of this app ('/post/…', '/{username}'). */
  to: string;
  /** As Link's: the page keeps its scroll position (a filter of the list it is on). */
  preventScrollReset?: boolean;
}

/**
 * A link repeated down a list (each post card's author, age, photo, Comment and savers): a plain
 * `<a>` the server renders without React Router's Link, whose hooks (resolving the path, a click
 * handler, prefetch state) every card paid for several times on every signed-in page (issue 16
 * §1, decision 0351). Once the page runs, the one listener of useListLinkNavigation follows these
 * links inside the app as a Link would; an onClick of the link's own runs first and may prevent it.
 * `data-discover` lets React Router learn the route ahead of the click, as for a Link.
 */
export function ListLink({ to, preventScrollReset, ...props }: ListLinkProps) {
  return (
    <a {...props} href={to} data-discover="true" data-list-link={preventScrollReset ? "keep-scroll" : ""} />
  );
}

/** The one click listener behind every ListLink (the root installs it). */
export function useListLinkNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest(LIST_LINKS) : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      if (link.target && link.target !== "_self") return;
      if (link.hasAttribute("download") || link.origin !== window.location.origin) return;
      event.preventDefault();
      void navigate(`${link.pathname}${link.search}${link.hash}`, {
        preventScrollReset: link.dataset.listLink === "keep-scroll",
      });
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
