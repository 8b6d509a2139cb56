import { HistoryExtension } from "@lexical/history";
import { PlainTextExtension } from "@lexical/plain-text";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalExtensionComposer } from "@lexical/react/LexicalExtensionComposer";
import { $restoreEditorState } from "@lexical/utils";
import {
  $addUpdateTag,
  $createParagraphNode,
  $getRoot,
  $isElementNode,
  $isLineBreakNode,
  CLEAR_HISTORY_COMMAND,
  defineExtension,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  type LexicalEditor,
  type LexicalNode,
  RootNode,
} from "lexical";
import { type Ref, useEffect, useImperativeHandle, useMemo, useRef } from "react";
import {
  countPostCharacters,
  type LexicalInlineNode,
  type LexicalParagraphNode,
  MAX_POST_CHARACTERS,
  type RichTextState,
} from "~/server/posts/rich-text.shared";
import { type EditorText, readEditorText } from "./editor-text";

/** What the composer may do to its editor from outside. */
export interface PostEditorHandle {
  /** Empties the editor and its undo history (after a post is sent, or discarded). */
  clear(): void;
  focus(): void;
}

export interface PostEditorProps {
  /** spec 2 §2: 'What are you selling?' (posts) or 'Write a comment...' (comments). */
  placeholder: string;
  /** The accessible name of the text box. */
  label: string;
  /** Every accepted change: the text as the server will read it, and its count. */
  onChange(text: EditorText): void;
  /** An edit that would pass the 500 limit was undone (spec 2 §5: 'Typing beyond is blocked'). */
  onLimitExceeded(): void;
  /** Ties the counter (and any hint) to the text box for screen readers. */
  describedBy?: string;
  autoFocus?: boolean;
  /** Taller box on the full-page composer. */
  minHeightClass?: string;
  handleRef?: Ref<PostEditorHandle>;
  /** Decision 0640: the stored text (Lexical JSON) an edit starts from. */
  initialState?: string | null;
}

/**
 * The composer's text box: Lexical with plain text only — paragraphs, line
 * breaks and text, nothing the server's rich-text schema would refuse
 * (decision 0080) — with undo history. Pasted formatting is dropped by the
 * plain-text extension.
 */
const composerExtension = defineExtension({
  name: "@campus-buy-sell/composer",
  namespace: "campus-buy-sell-composer",
  dependencies: [PlainTextExtension, HistoryExtension],
  theme: { paragraph: "m-0" },
  onError(error: Error) {
    // A Lexical bug must not take the page down: the draft stays, the error is reported.
    console.error(error);
  },
});

export function PostEditor({
  placeholder,
  label,
  onChange,
  onLimitExceeded,
  describedBy,
  autoFocus = false,
  minHeightClass = "min-h-24",
  handleRef,
  initialState = null,
}: PostEditorProps) {
  // The composer builds a new editor whenever this element changes identity: keep it stable.
  const contentEditable = useMemo(
    () => (
      <div className="relative">
        <ContentEditable
          aria-label={label}
          aria-describedby={describedBy}
          aria-multiline
          aria-placeholder={placeholder}
          placeholder={
            <div
              aria-hidden="true"
              className="pointer-events-none absolute top-0 left-0 text-[17px] leading-relaxed text-zinc-500 select-none"
            >
              {placeholder}
            </div>
          }
          className={`${minHeightClass} w-full text-[17px] leading-relaxed break-words whitespace-pre-wrap text-zinc-900 outline-none`}
        />
      </div>
    ),
    [label, describedBy, placeholder, minHeightClass],
  );
  return (
    <LexicalExtensionComposer extension={composerExtension} contentEditable={contentEditable}>
      <EditorBridge
        onChange={onChange}
        onLimitExceeded={onLimitExceeded}
        autoFocus={autoFocus}
        handleRef={handleRef}
        initialState={initialState}
      />
    </LexicalExtensionComposer>
  );
}

function $inlineOf(node: LexicalNode): LexicalInlineNode {
  if ($isLineBreakNode(node)) return { type: "linebreak", version: 1 };
  return {
    type: "text",
    version: 1,
    text: node.getTextContent(),
    format: 0,
    detail: 0,
    mode: "normal",
    style: "",
  };
}

/**
 * The live tree in the stored shape, for counting inside an update with the
 * server's own countPostCharacters (server/posts/rich-text.shared.ts).
 */
function $richTextOf(root: RootNode): RichTextState {
  const children = root.getChildren().map(
    (block): LexicalParagraphNode => ({
      type: "paragraph",
      version: 1,
      direction: null,
      format: "",
      indent: 0,
      textFormat: 0,
      textStyle: "",
      children: $isElementNode(block) ? block.getChildren().map($inlineOf) : [$inlineOf(block)],
    }),
  );
  return { root: { type: "root", version: 1, direction: null, format: "", indent: 0, children } };
}

function clearEditor(editor: LexicalEditor) {
  editor.update(
    () => {
      const root = $getRoot();
      root.clear();
      root.append($createParagraphNode());
    },
    { tag: HISTORIC_TAG },
  );
  editor.dispatchCommand(CLEAR_HISTORY_COMMAND, undefined);
}

/** Wires the editor to the composer: the 500 rule, change reports, the handle. */
function EditorBridge({
  onChange,
  onLimitExceeded,
  autoFocus,
  handleRef,
  initialState,
}: Pick<PostEditorProps, "onChange" | "onLimitExceeded" | "autoFocus" | "handleRef" | "initialState">) {
  const [editor] = useLexicalComposerContext();
  // The latest callbacks, read by the listener registered once per editor.
  const callbacks = useRef({ onChange, onLimitExceeded });
  callbacks.current = { onChange, onLimitExceeded };

  useImperativeHandle(
    handleRef,
    () => ({
      clear: () => clearEditor(editor),
      focus: () => editor.focus(),
    }),
    [editor],
  );

  // Decision 0640: an edit opens with the stored text, outside the undo history.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !initialState) return;
    started.current = true;
    editor.setEditorState(editor.parseEditorState(initialState), { tag: HISTORIC_TAG });
    callbacks.current.onChange(readEditorText(editor.getEditorState()));
  }, [editor, initialState]);

  useEffect(() => {
    if (autoFocus) editor.focus();
  }, [editor, autoFocus]);

  // spec 2 §5: an edit that takes the text past 500 is refused — typing, pasting or dropping
  // alike — by putting back the state before it, within the same update (so the page never
  // shows it and the undo history merges it away).
  useEffect(
    () =>
      editor.registerNodeTransform(RootNode, (root) => {
        const next = countPostCharacters($richTextOf(root));
        if (next <= MAX_POST_CHARACTERS) return;
        const previousState = editor.getEditorState();
        const previous = previousState.read(() => countPostCharacters($richTextOf($getRoot())));
        if (next <= previous) return;
        $restoreEditorState(editor, previousState);
        $addUpdateTag(HISTORY_MERGE_TAG);
        queueMicrotask(() => callbacks.current.onLimitExceeded());
      }),
    [editor],
  );

  useEffect(
    () =>
      editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves }) => {
        // Selection-only updates change nothing the composer shows.
        if (dirtyElements.size === 0 && dirtyLeaves.size === 0) return;
        callbacks.current.onChange(readEditorText(editorState));
      }),
    [editor],
  );

  return null;
}
