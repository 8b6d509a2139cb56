import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts } from "../db/schema";
import { getThread } from "./comments";
import { listFeed } from "./feed";
import { getPost } from "./posts";
import { LIST_TEXT_BUDGET } from "./rich-text.shared";
import type { PostSummary } from "./views";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const SECOND = 1000;

describe("a post's cost in a list (decision 0115)", () => {
  /** The probe's post as stored before the fix: 496 one-character runs with all 8 formats and 2,000 empty runs. */
  function probeState() {
    const run = (text: string, format: number) => ({
      type: "text",
      version: 1,
      text,
      format,
      detail: 0,
      mode: "normal",
      style: "",
    });
    const paragraph = (children: unknown[]) => ({
      type: "paragraph",
      version: 1,
      children,
      direction: "ltr",
      format: "",
      indent: 0,
      textFormat: 0,
      textStyle: "",
    });
    // Alternating formats, so even merging would leave 496 runs.
    const runs = Array.from({ length: 496 }, (_, index) => run("a", index % 2 === 0 ? 255 : 254));
    const empties = Array.from({ length: 2000 }, () => run("", 0));
    return {
      root: {
        type: "root",
        version: 1,
        direction: "ltr",
        format: "",
        indent: 0,
        children: [paragraph(runs), paragraph(empties.slice(0, 1000)), paragraph(empties.slice(1000))],
      },
    };
  }

  function elementsOf(text: PostSummary["text"]): number {
    let elements = 0;
    for (const paragraph of text?.children ?? []) {
      elements += 1;
      for (const node of paragraph.children) elements += node.type === "text" ? 1 + node.format.length : 1;
    }
    return elements;
  }

  it("sends at most LIST_TEXT_BUDGET elements and 8 KiB of text per post, whatever was stored; the page has it all", async () => {
    const member = await createTestMember(t, { campusId: "mit" });
    const stored = probeState();
    const plain = "a".repeat(496);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      t.clock.advance(SECOND);
      const [row] = await t.ctx.db
        .insert(posts)
        .values({
          campusId: "mit",
          authorId: member.id,
          text: stored,
          textPlain: `${plain}\n\n`,
          createdAt: t.clock.now(),
          lastModified: t.clock.now(),
        })
        .returning({ id: posts.id });
      if (row) ids.push(row.id);
    }
    expect(JSON.stringify(stored).length).toBeGreaterThan(200_000);

    const page = await listFeed(t.ctx, member.viewer, { campusId: "mit" });
    expect(page.items.map((item) => item.id)).toEqual(ids.reverse());
    for (const item of page.items) {
      expect(elementsOf(item.text)).toBeLessThanOrEqual(LIST_TEXT_BUDGET + 2);
      expect(JSON.stringify(item.text).length).toBeLessThan(8 * 1024);
      // Every character is still there, past the budget as plain text.
      const shown = item.text?.children
        .map((paragraph) =>
          paragraph.children.map((node) => (node.type === "text" ? node.text : "\n")).join(""),
        )
        .join("\n");
      expect(shown).toBe(`${plain}\n\n`);
    }
    // The whole page of three such posts stays small.
    expect(JSON.stringify(page).length).toBeLessThan(3 * 10 * 1024);

    const thread = await getThread(t.ctx, member.viewer, { postId: ids[0] ?? "", campusId: "mit" });
    expect(thread).toEqual([]);
    const whole = await getPost(t.ctx, member.viewer, { postId: ids[0] ?? "", campusId: "mit" });
    expect(whole?.text?.children[0]?.children).toHaveLength(496);
  });
});
