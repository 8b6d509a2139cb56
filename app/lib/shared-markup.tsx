import { createContext, type ReactNode, useContext } from "react";

/**
 * Renders an element to HTML on the server, once for every reader who sees the same thing (see
 * app/lib/shared-markup.server.ts). Given by app/entry.server.tsx; null in the browser.
 */
export type RenderSharedMarkup = (key: string, element: () => ReactNode) => string;

export const SharedMarkupContext = createContext<RenderSharedMarkup | null>(null);

/**
 * A part of a page that is the same for every reader (a post card's byline, text and photo): the
 * server renders it once per `sharedKey` and reuses the HTML, instead of rendering its elements
 * again for every page and every reader (decision 0380). The browser renders the
 * children as usual and hydrates them against that HTML, which is what React would have written.
 *
 * `sharedKey` gives a key that names everything the children show (asked on the server only), or
 * null to render them in place (a key the request alone could vary without bound); the
 * children must read nothing but their props: no context (they are rendered apart from the page),
 * nothing of the reader.
 *
 * Children that do read the page (a router's hooks, the sign-in modal) give `markup` instead: the
 * same elements without the behaviour, from props alone, for the server to share (a card's
 * actions, decision 0390). Their first render in the browser must write exactly that HTML.
 */
export function SharedMarkup({
  sharedKey,
  className,
  markup,
  children,
}: {
  sharedKey: () => string | null;
  className: string;
  markup?: () => ReactNode;
  children: ReactNode;
}) {
  const render = useContext(SharedMarkupContext);
  const key = render ? sharedKey() : null;
  if (render && key !== null) {
    const shared = render(key, markup ?? (() => children));
    // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own HTML for these children (renderToString escapes as any render does), not text from anyone.
    return <div className={className} dangerouslySetInnerHTML={{ __html: shared }} />;
  }
  return <div className={className}>{children}</div>;
}
