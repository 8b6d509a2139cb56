import type { ReactNode } from "react";
import { useHydrated } from "~/app/lib/hydrated";

/**
 * The full-page composer's frame (spec 2 §2 'Mobile: /create/post?goBack={page}'), for
 * /create/post and /post/{id}/edit (decisions 0640, 0641) alike: the composer once the page's script
 * runs (`children`); before, the title and what works without it (`plain`).
 */
export function ComposerPage({
  title,
  plain,
  children,
}: {
  title: string;
  plain?: ReactNode;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <div className="mx-auto min-h-dvh w-full max-w-xl bg-white px-4 pb-10 md:my-8 md:min-h-0 md:rounded-2xl md:border md:border-zinc-200 md:pb-6">
      {hydrated ? (
        children
      ) : (
        <>
          <h1 className="py-4 text-lg font-bold text-zinc-900">{title}</h1>
          {plain}
        </>
      )}
    </div>
  );
}
