import { type ReactNode, useId, useState } from "react";
import type { RichTextFormat } from "~/server/posts/rich-text.shared";
import type {
  RichTextView,
  RichTextViewInline,
  RichTextViewParagraph,
} from "~/server/posts/rich-text-view.shared";
import { SEE_MORE, textToShow } from "./post-format";

/** Innermost first: code inside, then the inline marks, then sub/superscript. */
const FORMAT_ORDER: RichTextFormat[] = [
  "code",
  "highlight",
  "strikethrough",
  "underline",
  "italic",
  "bold",
  "subscript",
  "superscript",
];

function wrap(format: RichTextFormat, children: ReactNode): ReactNode {
  switch (format) {
    case "bold":
      return <strong className="font-semibold">{children}</strong>;
    case "italic":
      return <em>{children}</em>;
    case "underline":
      return <span className="underline">{children}</span>;
    case "strikethrough":
      return <s>{children}</s>;
    case "code":
      return <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.9em]">{children}</code>;
    case "highlight":
      return <mark className="rounded-sm bg-amber-100 px-0.5 text-inherit">{children}</mark>;
    case "subscript":
      return <sub>{children}</sub>;
    case "superscript":
      return <sup>{children}</sup>;
  }
}

function Inline({ node }: { node: RichTextViewInline }) {
  if (node.type === "linebreak") return <br />;
  // Text is a React text child: '<script>' in a post stays those characters (docs/architecture.md 'rich text').
  let content: ReactNode = node.text;
  for (const format of FORMAT_ORDER) {
    if (node.format.includes(format)) content = wrap(format, content);
  }
  return <>{content}</>;
}

const alignClass: Record<NonNullable<RichTextViewParagraph["align"]>, string> = {
  left: "text-left",
  start: "text-start",
  center: "text-center",
  right: "text-right",
  end: "text-end",
  justify: "text-justify",
};

/** A Lexical text as React elements, one paragraph per block; empty blocks keep their line. */
export function RichText({
  id,
  view,
  className = "",
  trailing = null,
}: {
  /** What a control showing more or less of the text names (aria-controls). */
  id?: string;
  view: RichTextView;
  className?: string;
  /** Added at the end of the last paragraph (the '…' of a cut text). */
  trailing?: ReactNode;
}) {
  return (
    <div id={id} className={`break-words whitespace-pre-wrap ${className}`}>
      {view.children.map((block, index) => (
        <p
          // Blocks have no ids; their order is their identity and never changes within one text.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          key={index}
          className={block.align ? `min-h-[1lh] ${alignClass[block.align]}` : "min-h-[1lh]"}
        >
          {block.children.map((node, nodeIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: inline nodes of a fixed text.
            <Inline key={nodeIndex} node={node} />
          ))}
          {index === view.children.length - 1 ? trailing : null}
        </p>
      ))}
    </div>
  );
}

interface PostTextProps {
  text: RichTextView;
  /** The post's own page shows all of it; lists cut it (spec 2 §2). */
  whole?: boolean;
  className?: string;
}

/**
 * A post's text, cut at 200 characters with 'See more' / 'See less' (spec 2 §2).
 * Without JavaScript the cut text shows with the button inert; the post page has the whole text.
 */
export function PostText({ text, whole = false, className = "" }: PostTextProps) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const { view, toggle } = whole ? { view: text, toggle: null } : textToShow(text, expanded);
  const textClass = "text-[15px] leading-relaxed text-zinc-900";
  // Most list texts are short: no See more, and no wrapper for it (a feed page renders 15).
  if (!toggle)
    return <RichText view={view} className={className ? `${textClass} ${className}` : textClass} />;
  return (
    <div className={className}>
      <RichText id={id} view={view} trailing={toggle === SEE_MORE ? "…" : null} className={textClass} />
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((value) => !value)}
        className="-mx-1 mt-0.5 rounded px-1 py-1 text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {toggle}
      </button>
    </div>
  );
}
