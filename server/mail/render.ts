import { render, toPlainText } from "@react-email/render";
import type { ReactElement } from "react";

/**
 * Renders a React Email component to the html and text parts of a mail. React renders once; the
 * text part is the library's own conversion of that html (what `plainText: true` does after a
 * second render), which halves the work of a batch of digests (bench/saved-search-digest.ts).
 */
export async function renderMail(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}
