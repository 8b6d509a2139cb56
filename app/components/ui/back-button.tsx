import { type ReactNode, useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { backStep, loadHistory, saveHistory, staticBackTarget } from "~/app/lib/navigation-history";
import { ArrowLeftIcon } from "./icons";

function currentEntry(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}

interface BackButtonProps {
  className?: string;
  /** Shown beside the arrow (e.g. the unread badge). */
  children?: ReactNode;
  /** The accessible name. */
  label?: string;
}

/**
 * 'Back' by the navigation memory (spec 1 §2): the last page that is not an
 * auth, settings or create page, else /home; from a sensitive account page,
 * /settings/account. The link works before JavaScript loads (it then points
 * at /home or /settings/account); afterwards it points at the remembered page.
 */
export function BackButton({ className = "", children, label = "Back" }: BackButtonProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const entry = currentEntry(location);
  const [target, setTarget] = useState(() => staticBackTarget(entry));

  // After the recorder (app/lib/record-navigation.ts) has stored this page (effects run child first, so wait a tick).
  useEffect(() => {
    const timer = setTimeout(() => setTarget(backStep(loadHistory(), entry).target), 0);
    return () => clearTimeout(timer);
  }, [entry]);

  return (
    <Link
      to={target}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        const step = backStep(loadHistory(), entry);
        saveHistory(step.history);
        navigate(step.target);
      }}
      className={`relative flex size-10 shrink-0 items-center justify-center rounded-full text-zinc-800 hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-brand-600 ${className}`}
    >
      <ArrowLeftIcon className="size-5" />
      <span className="sr-only">{label}</span>
      {children}
    </Link>
  );
}
