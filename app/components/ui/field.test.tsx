import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConformField } from "./field";

// Decision 0145: the one Conform-aware field carries Conform's name, id, saved value and first message
// onto the labelled input, wired for screen readers.

describe("ConformField", () => {
  const meta = { key: "k1", id: "form-email", name: "email", initialValue: "ada@ou.edu" };

  it("labels the input and starts it from the saved value", () => {
    const html = renderToStaticMarkup(<ConformField meta={meta} label="Email" type="email" />);
    expect(html).toContain('<label for="form-email"');
    expect(html).toContain(">Email</label>");
    expect(html).toMatch(/<input id="form-email"[^>]*name="email"[^>]*value="ada@ou.edu"/);
    expect(html).not.toContain("aria-invalid");
  });

  it("shows the first message under the input and points the input at it", () => {
    const html = renderToStaticMarkup(
      <ConformField meta={{ ...meta, errors: ["Email is invalid", "second"] }} label="Email" />,
    );
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="form-email-error"');
    expect(html).toContain('<p id="form-email-error" class="text-sm text-red-600">Email is invalid</p>');
    expect(html).not.toContain("second");
  });
});
