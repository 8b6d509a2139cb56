import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { dataMigrations, posts } from "../db/schema";
import { NORMALISE_POSTS_MIGRATION, normaliseStoredPosts } from "./normalise-stored";
import {
  countRichTextNodes,
  MAX_RICH_TEXT_NODES,
  type RichTextState,
  richTextToPlainText,
} from "./rich-text.shared";

// Decision 0115: posts stored before the node cap go through the same normaliser at
// start-up, once, rewriting only what changes and cutting only what no one could post today.

let t: TestContext;
let member: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  member = await createTestMember(t);
});
afterAll(() => t.close());

function run(text: string, format = 0) {
  return {
    type: "text" as const,
    version: 1,
    text,
    format,
    detail: 0,
    mode: "normal" as const,
    style: "" as const,
  };
}

function block(children: RichTextState["root"]["children"][number]["children"]) {
  return {
    type: "paragraph" as const,
    version: 1,
    children,
    direction: "ltr" as const,
    format: "" as const,
    indent: 0,
    textFormat: 0,
    textStyle: "" as const,
  };
}

function state(children: ReturnType<typeof block>[]): RichTextState {
  return { root: { type: "root", version: 1, children, direction: "ltr", format: "", indent: 0 } };
}

async function plant(text: unknown): Promise<string> {
  const [row] = await t.ctx.db
    .insert(posts)
    .values({ campusId: "ou", authorId: member.id, text, textPlain: "as stored", createdAt: t.clock.now() })
    .returning({ id: posts.id });
  if (!row) throw new Error("no row");
  return row.id;
}

async function stored(id: string) {
  const [row] = await t.ctx.db
    .select({ text: posts.text, textPlain: posts.textPlain })
    .from(posts)
    .where(eq(posts.id, id));
  return { text: row?.text as RichTextState, textPlain: row?.textPlain };
}

describe("normaliseStoredPosts (decision 0115)", () => {
  it("rewrites the rows whose text changes, in keyset batches, once per database", async () => {
    const fine = await createTestPost(t, member.viewer, { text: "Desk lamp\nBarely used" });
    const fineBefore = await stored(fine.id);

    // The probe's post: 496 one-character runs with all formats and 2,000 empty runs.
    const probe = await plant(
      state([
        block(Array.from({ length: 496 }, () => run("p", 255))),
        block(Array.from({ length: 1000 }, () => run(""))),
        block(Array.from({ length: 1000 }, () => run(""))),
      ]),
    );
    // 400 runs of alternating formats: over the cap even merged, so the formatting goes; the text stays.
    const alternating = await plant(
      state([block(Array.from({ length: 400 }, (_, index) => run("q", index % 2 === 0 ? 255 : 0)))]),
    );
    // 200 one-character lines cannot be made smaller: the lines past the cap are cut.
    const lines = await plant(
      state(Array.from({ length: 200 }, (_, index) => block([run(`${index % 10}`)]))),
    );
    const broken = await plant({ root: "not a state" });
    const filesOnly = await plant(null);

    const report = await normaliseStoredPosts(t.ctx, { batchSize: 2 });
    expect(report).toEqual({ skipped: false, examined: 5, rewritten: 3, unreadable: 1 });

    const probeAfter = await stored(probe);
    expect(probeAfter.text.root.children.map((paragraph) => paragraph.children)).toEqual([
      [run("p".repeat(496), 255)],
      [],
      [],
    ]);
    expect(probeAfter.textPlain).toBe(`${"p".repeat(496)}\n\n`);

    const alternatingAfter = await stored(alternating);
    expect(alternatingAfter.text).toEqual(state([block([run("q".repeat(400))])]));

    const linesAfter = await stored(lines);
    expect(countRichTextNodes(linesAfter.text)).toBe(MAX_RICH_TEXT_NODES);
    expect(linesAfter.text.root.children).toHaveLength(MAX_RICH_TEXT_NODES / 2);
    expect(linesAfter.textPlain).toBe(richTextToPlainText(linesAfter.text));

    expect(await stored(fine.id)).toEqual(fineBefore);
    expect((await stored(broken)).text).toEqual({ root: "not a state" });
    expect((await stored(filesOnly)).text).toBeNull();

    // Once per database; and run again, it finds nothing left to change.
    expect(await normaliseStoredPosts(t.ctx)).toMatchObject({ skipped: true, examined: 0 });
    await t.ctx.db.delete(dataMigrations).where(eq(dataMigrations.name, NORMALISE_POSTS_MIGRATION));
    expect(await normaliseStoredPosts(t.ctx, { batchSize: 3 })).toEqual({
      skipped: false,
      examined: 5,
      rewritten: 0,
      unreadable: 1,
    });
  });
});
