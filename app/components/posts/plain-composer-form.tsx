import { useId } from "react";
import { Link } from "react-router";
import { NoScriptMessage } from "~/app/components/ui/action-feedback";
import { buttonClass } from "~/app/components/ui/button";
import type { ToastInput } from "~/app/lib/toast";
import { CATEGORY_OPTIONS } from "~/server/posts/categories.shared";
import { POST_FILE_ACCEPT } from "~/server/posts/post-rules.shared";
import { MAX_POST_CHARACTERS } from "~/server/posts/rich-text.shared";
import { ListingFields } from "./listing-fields";

/**
 * The full-page composers before their script runs (or without JavaScript): a
 * plain multipart form posting to the same action. The text goes as plain
 * text (`plainText`), which the action turns into the editor's format; the
 * server applies every rule (500 characters, files, gates) as for the editor.
 */
export function PlainComposerForm({
  kind,
  category = null,
  backHref,
  toast,
}: {
  kind: "post" | "comment";
  category?: string | null;
  backHref: string;
  toast?: ToastInput | null;
}) {
  const textId = useId();
  const categoryId = useId();
  const filesId = useId();
  const post = kind === "post";
  return (
    <form method="post" encType="multipart/form-data" className="flex flex-col gap-4">
      <NoScriptMessage toast={toast} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={textId} className="text-sm font-semibold text-zinc-800">
          {post ? "Post text" : "Comment text"}
        </label>
        <textarea
          id={textId}
          name="plainText"
          rows={post ? 8 : 5}
          placeholder={post ? "What are you selling?" : "Write a comment..."}
          className="w-full resize-y rounded-xl border border-zinc-300 px-3 py-2 text-[17px] leading-relaxed"
        />
        <p className="text-sm text-zinc-500">
          Up to {MAX_POST_CHARACTERS} characters; each new line counts 2.
        </p>
      </div>
      {post ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={categoryId} className="text-sm font-semibold text-zinc-800">
            Category
          </label>
          <select
            id={categoryId}
            name="category"
            defaultValue={category ?? "all"}
            className="w-full rounded-xl border border-zinc-300 bg-white px-3 py-2.5 text-[15px]"
          >
            {CATEGORY_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.text}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {post ? <ListingFields /> : null}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={filesId} className="text-sm font-semibold text-zinc-800">
          Photos or videos (up to 10)
        </label>
        <input id={filesId} type="file" name="files" accept={POST_FILE_ACCEPT} multiple className="text-sm" />
      </div>
      <div className="flex items-center justify-end gap-2">
        <Link to={backHref} className={buttonClass("secondary")}>
          Cancel
        </Link>
        <button type="submit" className={buttonClass("primary")}>
          {post ? "Post" : "Reply"}
        </button>
      </div>
    </form>
  );
}
