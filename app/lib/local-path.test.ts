import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localPath } from "./local-path";

// docs/product/outages-and-errors.md: returnTo accepted a tab ('/\t/evil.example' is '//evil.example' in a browser).

/** Where a browser goes for a Location header on https://ou.example/post/1. */
function browserTarget(location: string): URL {
  return new URL(location, "https://ou.example/post/1");
}

describe("localPath", () => {
  it("keeps paths of this site as they are", () => {
    for (const path of [
      "/",
      "/home",
      "/home?category=furniture&cursor=abc",
      "/post/3f1c?redirect=true#comments",
      "/media/9a?x=%2F",
      "/search?q=desk%20lamp",
      "/profile/jamie",
    ]) {
      expect(localPath(path)).toBe(path);
    }
  });

  it("refuses control characters anywhere, raw or encoded", () => {
    for (const hostile of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/home\r\nSet-Cookie: a=b",
      "/home\u0000",
      "\u0000/home",
      " /home",
      "/\u007f/evil.example",
      "/\u0085/evil.example",
      "/%09/evil.example",
      "/%0d%0a/evil.example",
      "/home%00",
      "/home?q=%0A",
    ]) {
      expect(localPath(hostile), JSON.stringify(hostile)).toBeNull();
    }
  });

  it("refuses a space or a character past ASCII as sent, which no Location header may hold (docs/product/outages-and-errors.md)", () => {
    for (const raw of ["/\u3000/x", "/home page", "/caf\u00e9", "/search?q=\u65e5"]) {
      expect(localPath(raw), JSON.stringify(raw)).toBeNull();
    }
    expect(localPath("/%E3%80%80/x")).toBe("/%E3%80%80/x");
    expect(localPath("/search?q=%E6%97%A5")).toBe("/search?q=%E6%97%A5");
  });

  it("refuses other sites: protocol-relative, backslashes, absolute URLs, schemes", () => {
    for (const hostile of [
      "//evil.example",
      "///evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "\\/evil.example",
      "/%2F/evil.example",
      "/%2f%2fevil.example",
      "/%5Cevil.example",
      "/%5c%5cevil.example",
      "https://evil.example/home",
      "http:evil.example",
      "HTTPS://evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      "evil.example",
      "home",
      "",
      "/%E0%A4%A",
    ]) {
      expect(localPath(hostile), JSON.stringify(hostile)).toBeNull();
    }
  });

  it("refuses what is not a string, and very long targets", () => {
    for (const value of [null, undefined, 42, ["/home"], { toString: () => "/home" }, new Blob(["/home"])]) {
      expect(localPath(value)).toBeNull();
    }
    expect(localPath(`/${"a".repeat(2000)}`)).toBeNull();
  });

  it("never lets a browser leave the site, whatever the string (generated inputs)", () => {
    const pieces = fc.constantFrom(
      "/",
      "\\",
      "\t",
      "\n",
      "\r",
      "\u0000",
      "%2F",
      "%5C",
      "%09",
      ".",
      "..",
      "evil.example",
      ":",
      "@",
      "?",
      "#",
      " ",
      "https:",
      "a",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")),
        ),
        (input) => {
          const result = localPath(input);
          if (result === null) return;
          expect(result).toBe(input);
          expect(browserTarget(result).origin).toBe("https://ou.example");
          // Its decoded form leads nowhere else either (a server or proxy that decodes it once).
          expect(browserTarget(decodeURIComponent(result)).origin).toBe("https://ou.example");
        },
      ),
      { numRuns: 2000 },
    );
  });
});
