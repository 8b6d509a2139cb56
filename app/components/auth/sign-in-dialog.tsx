import { Link } from "react-router";
import { buttonClass } from "~/app/components/ui/button";
import { MailIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { useRootData } from "~/app/lib/root-data";
import { GoogleSignInButton } from "./google-button";
import { GoogleIcon } from "./google-icon";
import { type SignInReason, signInReasonText, signInTargets } from "./sign-in-targets";

/** The sign-in modal's body (spec 1 §6), loaded by ./sign-in-modal.tsx on first use. */
export default function SignInModal({ reason, onClose }: { reason: SignInReason | null; onClose(): void }) {
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
