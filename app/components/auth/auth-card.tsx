import type { ReactNode } from "react";
import { Link } from "react-router";
import { campusBrand } from "~/app/components/shell/campus";
import { useRootData } from "~/app/lib/root-data";

/**
 * The frame of the auth pages (they use the bare shell): the campus's brand
 * line back to the feed, then a card with the page's heading. Full width on a
 * phone, a centred card from 480 px.
 */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { campus } = useRootData();
  return (
    <div className="flex min-h-dvh flex-col items-center px-4 py-8 xs:justify-center xs:py-12">
      <Link
        to="/home"
        className="mb-6 rounded text-lg font-extrabold tracking-tight text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600"
      >
        {campusBrand(campus)}
      </Link>
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-zinc-200 xs:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-zinc-900">{title}</h1>
        {subtitle ? <div className="mt-2 text-[15px] text-zinc-600">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-zinc-600">{footer}</div> : null}
    </div>
  );
}

/** A text link in the auth pages' style. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded font-semibold text-brand-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      {children}
    </Link>
  );
}
