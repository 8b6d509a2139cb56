import { createContext, useContext } from "react";
import type { ParticipationRefusal } from "~/server/accounts/gates.shared";
import type { ComposerGoBack } from "./composer-targets";

// What the shell and the pages ask of the composer (its provider: composer-provider.tsx).

export interface OpenPostComposerOptions {
  /** spec 2 §2: the page the full-page composer returns to (home | detail | profile); by default the current page's. */
  goBack?: string;
}

export interface RefusalOrigin {
  goBack?: ComposerGoBack;
  /** The post replied to, for a comment (the set-up wizard returns to it). */
  postId?: string;
}

export interface ComposerApi {
  /**
   * Opens the post composer (spec 2 §2): a modal above 769 px, /create/post?goBack=…
   * at 769 px and below. A member who may not post yet gets the prompt instead.
   */
  openPostComposer(options?: OpenPostComposerOptions): void;
  /** Opens what a refusal asks for: the sign-in modal, /verify, the school prompt or the profile modal. */
  showRefusal(refusal: ParticipationRefusal, origin?: RefusalOrigin): void;
}

export const ComposerContext = createContext<ComposerApi | null>(null);

export function useComposer(): ComposerApi {
  const api = useContext(ComposerContext);
  if (!api) throw new Error("useComposer used outside <ComposerProvider>");
  return api;
}
