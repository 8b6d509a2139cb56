import { Link } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { Button, buttonClass } from "~/app/components/ui/button";
import { ExternalLinkIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { type CampusChoice, schoolPlace } from "./campus-choice";

export interface SchoolOption {
  id: string;
  name: string;
  school: string | null;
  city: string | null;
  state: string | null;
  country: string;
  logo: string | null;
  choice: CampusChoice;
}

interface SchoolModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The chosen campus; null when none is (an unknown id): the modal then says 'Something went wrong'. */
  school: SchoolOption | null;
}

/**
 * The campus modal of Find Your School (spec 1 §2): the campus logo and name,
 * and one button by the viewer's state (./campus-choice.ts).
 */
export function SchoolModal({ open, onOpenChange, school }: SchoolModalProps) {
  if (!school) {
    return (
      <Modal
        open={open}
        onOpenChange={onOpenChange}
        title={SOMETHING_WENT_WRONG}
        description="We could not find that school. Search again and pick it from the list."
        footer={
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        }
      />
    );
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={school.name}>
      <div className="flex flex-col items-center text-center">
        {school.logo ? (
          <img
            src={school.logo}
            alt={`${school.name} logo`}
            width={96}
            height={96}
            className="size-24 rounded-2xl shadow-sm"
          />
        ) : null}
        {school.school ? <p className="mt-4 text-base font-semibold text-zinc-900">{school.school}</p> : null}
        <p className="mt-1 text-sm text-zinc-600">{schoolPlace(school)}</p>
        <ChoiceButton choice={school.choice} onDone={() => onOpenChange(false)} />
      </div>
    </Modal>
  );
}

function ChoiceButton({ choice, onDone }: { choice: CampusChoice; onDone(): void }) {
  const signIn = useSignInModal();
  const className = buttonClass("primary", "mt-6 h-11 w-full");
  if (choice.kind === "view" || choice.kind === "guest") {
    return (
      <a href={choice.href} target="_blank" rel="noopener noreferrer" className={className} onClick={onDone}>
        {choice.label}
        <ExternalLinkIcon className="size-[18px]" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    );
  }
  return (
    <Link
      to={choice.to}
      className={className}
      onClick={(event) => {
        onDone();
        if (choice.kind === "sign-in") {
          event.preventDefault();
          signIn.open("join campus");
        }
      }}
    >
      {choice.label}
    </Link>
  );
}
