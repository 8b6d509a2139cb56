import type { ReactNode } from "react";

/**
 * A question that opens to its answer (FAQ lists). Built on <details>, so it
 * works without JavaScript and is keyboard and screen-reader friendly as is.
 * Put several in a <DisclosureList>.
 */
export function Disclosure({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="group">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3.5 font-medium text-zinc-900 hover:bg-zinc-50 focus-visible:-outline-offset-2 [&::-webkit-details-marker]:hidden">
        {summary}
        <span
          aria-hidden="true"
          className="text-xl leading-none text-zinc-400 transition-transform group-open:rotate-45 motion-reduce:transition-none"
        >
          +
        </span>
      </summary>
      <div className="px-4 pb-4 text-[15px] leading-relaxed text-zinc-600">{children}</div>
    </details>
  );
}

export function DisclosureList({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div className={`divide-y divide-zinc-100 rounded-xl border border-zinc-200 ${className}`}>
      {children}
    </div>
  );
}
