import { type AnchorHTMLAttributes, createElement, useEffect } from "react";
import { useNavigate } from "react-router";
import { propsWithout } from "./props";

/** The links useListLinkNavigation follows inside the app (ListLink's mark). */
const LIST_LINKS = "a[data-list-link]";

interface ListLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** An address of this app ('/post/…', '/{username}'). */
  to: string;
  /** As Link's: the page keeps its scroll position (a filter of the list it is on). */
  preventScrollReset?: boolean;
}

/**
 * A link of the app's pages that every page repeats (each post card's author, age, photo, Comment
 * and savers; the shell's navigation and footer): a plain `<a>` the server renders without React
 * Router's Link or NavLink, whose hooks (resolving the path, a click handler, prefetch state) every
 * signed-in page paid for about 140 times (decisions 0351 and 0354). Once the page
 * runs, the one listener of useListLinkNavigation follows these links inside the app as a Link
 * would; an onClick of the link's own runs first and may prevent it. `data-discover` lets React
 * Router learn the route ahead of the click, as for a Link.
 */
export function ListLink(props: ListLinkProps) {
  const anchor = propsWithout(props, LIST_LINK_PROPS);
  anchor.href = props.to;
  anchor["data-discover"] = "true";
  anchor["data-list-link"] = props.preventScrollReset ? "keep-scroll" : "";
  return createElement("a", anchor);
}

/** ListLink's own props, not the anchor's. */
const LIST_LINK_PROPS = ["to", "preventScrollReset"] as const;

/**
 * Whether a navigation link to `to` stands for the page at `pathname`, as NavLink decides
 * (without `end`): the same path or a page under it, letter case aside; `to`'s query is ignored.
 */
export function isCurrentPath(pathname: string, to: string): boolean {
  const target = (to.split("?")[0] ?? to).toLowerCase();
  const current = pathname.toLowerCase();
  return current === target || (current.startsWith(target) && current.charAt(target.length) === "/");
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
