import type { TrustCondition } from "~/server/trust/levels.shared";

/**
 * A trust level's conditions (docs/product/trust-levels.md), met or not yet, for the student's
 * own page and the console's student page alike: the mark is seen, the words are heard.
 */
export function TrustConditions({
  items,
  className = "",
}: {
  items: readonly TrustCondition[];
  className?: string;
}) {
  return (
    <ul className={`space-y-1 text-sm ${className}`}>
      {items.map((item) => (
        <li key={item.text} className={item.met ? "text-zinc-900" : "text-zinc-500"}>
          <span aria-hidden="true">{item.met ? "✓ " : "○ "}</span>
          <span className="sr-only">{item.met ? "Met: " : "Not yet: "}</span>
          {item.text}
        </li>
      ))}
    </ul>
  );
}
