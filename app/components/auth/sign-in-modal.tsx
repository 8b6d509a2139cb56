import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import { GoogleIcon, MailIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { useRootData } from "~/app/lib/root-data";
import { GoogleSignInButton } from "./google-button";
import { type SignInReason, signInReasonText, signInTargets } from "./sign-in-targets";

export type { SignInReason } from "./sign-in-targets";

interface SignInModalApi {
  /** Opens the modal with the sentence for `reason` (spec 1 §6). */
  open(reason: SignInReason): void;
}

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
  return (
    <SignInModalContext.Provider value={api}>
      {children}
      <SignInModal reason={reason} onClose={() => setReason(null)} />
    </SignInModalContext.Provider>
  );
}

function SignInModal({ reason, onClose }: { reason: SignInReason | null; onClose(): void }) {
  const { geoBlocked } = useRootData();
  const targets = signInTargets(geoBlocked);
  return (
    <Modal
      open={reason !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Log In / Sign Up"
      description={reason ? signInReasonText(reason) : undefined}
    >
      <div className="flex flex-col gap-2.5">
        {targets.google !== null ? (
          <Link to={targets.google} onClick={onClose} className={buttonClass("secondary", "h-11 w-full")}>
            <GoogleIcon />
            Continue with Google
          </Link>
        ) : (
          // The auth landing's action starts Google sign-in (as the shell's dropdown does).
          <GoogleSignInButton className="h-11 w-full" />
        )}
        <Link to={targets.email} onClick={onClose} className={buttonClass("primary", "h-11 w-full")}>
          <MailIcon className="size-[18px]" />
          Continue with Email
        </Link>
        <p className="mt-2 text-center text-sm text-zinc-600">Already have an account?</p>
        <Link to={targets.logIn} onClick={onClose} className={buttonClass("ghost", "h-11 w-full")}>
          Log In
        </Link>
      </div>
    </Modal>
  );
}
