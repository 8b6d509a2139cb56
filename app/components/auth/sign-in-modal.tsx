import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { preloadWhenIdle, useOnceTrue } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";
import type { SignInReason } from "./sign-in-targets";

export type { SignInReason } from "./sign-in-targets";

interface SignInModalApi {
  /** Opens the modal with the sentence for `reason` (spec 1 §6). */
  open(reason: SignInReason): void;
}

// Decision 0340: the modal itself loads when the browser is idle, or when it first opens.
const loadSignInDialog = () => import("./sign-in-dialog");
const SignInDialog = lazy(loadSignInDialog);

const SignInModalContext = createContext<SignInModalApi | null>(null);

/**
 * The sign-in modal (spec 1 §6: 'posting, commenting, saving and messaging
 * open the sign-in modal with a reason (like, comment, message, post, search,
 * join campus)'). Any component asks for it:
 *
 *   const signIn = useSignInModal();
 *   <button onClick={() => signIn.open("post")}>…</button>
 *
 * Give such buttons a link to /user_registration as their no-JavaScript form.
 */
export function useSignInModal(): SignInModalApi {
  const api = useContext(SignInModalContext);
  if (!api) throw new Error("useSignInModal used outside <SignInModalProvider>");
  return api;
}

export function SignInModalProvider({ children }: { children: ReactNode }) {
  const [reason, setReason] = useState<SignInReason | null>(null);
  const open = useCallback((next: SignInReason) => setReason(next), []);
  const api = useMemo(() => ({ open }), [open]);
  const used = useOnceTrue(reason !== null);
  const signedIn = useRootData().viewer !== null;
  // Only a visitor is asked to sign in: a member's page does not fetch the modal.
  useEffect(() => {
    if (!signedIn) preloadWhenIdle(loadSignInDialog);
  }, [signedIn]);
  return (
    <SignInModalContext.Provider value={api}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <SignInDialog reason={reason} onClose={() => setReason(null)} />
        </Suspense>
      ) : null}
    </SignInModalContext.Provider>
  );
}
