import { type ReactNode, useId } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SharedMarkup, SharedMarkupContext } from "./shared-markup";
import { sharedMarkupCache } from "./shared-markup.server";

// Decision 0380: a part every reader sees alike is rendered once on the server and its HTML reused.
// The browser hydrates the part's own elements against that HTML, so it must be what React would
// have written for them in place.

let renders = 0;

/** A part with what React marks in its HTML: adjacent texts, an id of its own. */
function Part({ name, count }: { name: string; count: number }) {
  renders += 1;
  const id = useId();
  return (
    <p id={id}>
      {name} saved {count} <b>times</b>
    </p>
  );
}

/** A component after the part that makes an id too: the part must not shift it. */
function Later() {
  return <span id={useId()}>later</span>;
}

function Page({ name, count }: { name: string; count: number }) {
  return (
    <article>
      <SharedMarkup sharedKey={() => JSON.stringify([name, count])} className="contents">
        <Part name={name} count={count} />
      </SharedMarkup>
      <Later />
    </article>
  );
}

function onServer(render: ReturnType<typeof sharedMarkupCache> | null, page: ReactNode): string {
  return renderToString(<SharedMarkupContext value={render}>{page}</SharedMarkupContext>);
}

/** The ids React gives (they differ by design: the part's are its own), blanked to compare the rest. */
const withoutIds = (html: string) => html.replace(/id="[^"]*"/g, 'id=""');

describe("SharedMarkup", () => {
  it("writes the HTML the part's elements give in place, and leaves later ids as they were", () => {
    const inPlace = onServer(null, <Page name="Ana" count={3} />);
    const shared = onServer(sharedMarkupCache(), <Page name="Ana" count={3} />);
    expect(withoutIds(shared)).toBe(withoutIds(inPlace));
    expect(shared).toContain("Ana<!-- --> saved <!-- -->3<!-- --> <b>times</b>");
    const laterId = (html: string) => html.match(/<span id="([^"]*)">later/)?.[1];
    expect(laterId(shared)).toBe(laterId(inPlace));
  });

  it("renders a part once per key and reuses it for every page", () => {
    const render = sharedMarkupCache();
    renders = 0;
    const first = onServer(render, <Page name="Ana" count={3} />);
    const again = onServer(render, <Page name="Ana" count={3} />);
    expect(again).toBe(first);
    expect(renders).toBe(1);
    const changed = onServer(render, <Page name="Ana" count={4} />);
    expect(changed).toContain("4");
    expect(renders).toBe(2);
  });

  it("gives every part ids of its own, so two parts on a page never share one", () => {
    const render = sharedMarkupCache();
    const html = onServer(
      render,
      <>
        <Page name="Ana" count={1} />
        <Page name="Ben" count={2} />
      </>,
    );
    const ids = [...html.matchAll(/<p id="([^"]*)"/g)].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it("keeps the most recently used parts up to its limit", () => {
    const render = sharedMarkupCache(2);
    renders = 0;
    for (const count of [1, 2, 1, 3]) onServer(render, <Page name="Ana" count={count} />);
    expect(renders).toBe(3);
    onServer(render, <Page name="Ana" count={1} />); // used last but one: kept
    expect(renders).toBe(3);
    onServer(render, <Page name="Ana" count={2} />); // the oldest: gone
    expect(renders).toBe(4);
  });

  it("renders a part without a key in place, every time, and keeps nothing", () => {
    const render = sharedMarkupCache();
    renders = 0;
    const page = (
      <SharedMarkup sharedKey={() => null} className="contents">
        <Part name="Ana" count={3} />
      </SharedMarkup>
    );
    const html = onServer(render, page);
    onServer(render, page);
    expect(renders).toBe(2);
    expect(withoutIds(html)).toBe(withoutIds(onServer(null, page)));
  });

  it("in the browser (no renderer given) renders the part as usual", () => {
    renders = 0;
    onServer(null, <Page name="Ana" count={3} />);
    onServer(null, <Page name="Ana" count={3} />);
    expect(renders).toBe(2);
  });
});
