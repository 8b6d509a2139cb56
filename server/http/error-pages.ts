import { BACK_SOON, BACK_SOON_HEADERS } from "../errors.shared";

/**
 * Decisions 0470 and 0471: the pages answered when the app cannot render one. A whole
 * static document: no script, no stylesheet, no image to fetch from a site that may be down;
 * inline styles only (the CSP allows inline styles, server/http/middleware/security.ts); never a stack trace
 * or a path of the machine, in any mode. `title` and `message` are our own texts, never an error's.
 */
export function staticErrorPage(page: { title: string; message: string; action: "retry" | "home" }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title} · Campus Buy Sell</title>
</head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#fafafa;color:#18181b;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<main style="max-width:28rem;margin:1rem;padding:3rem 1.5rem;text-align:center;background:#fff;border:1px solid #e4e4e7;border-radius:1rem">
<h1 style="margin:0;font-size:1.875rem;font-weight:800;letter-spacing:-0.025em">${page.title}</h1>
<p style="margin:0.75rem 0 0;font-size:1rem;line-height:1.5;color:#52525b">${page.message}</p>
<p style="margin:2rem 0 0"><a href="${page.action === "retry" ? "" : "/home"}" style="display:inline-flex;align-items:center;height:2.75rem;padding:0 1.75rem;border-radius:9999px;background:#b91c1c;color:#fff;font-weight:600;text-decoration:none">${page.action === "retry" ? "Try again" : "Go To Feed"}</a></p>
</main>
</body>
</html>
`;
}

/**
 * The page a browser gets while the database cannot be reached: the shell cannot render without
 * it (the root loader reads the session and the badges). It says the site will be back and offers
 * a reload, which the browser may also do by itself after Retry-After.
 */
export function backSoonPage(): string {
  return staticErrorPage({ title: BACK_SOON.title, message: BACK_SOON.message, action: "retry" });
}

/** The answer to a page request during an outage: 503, Retry-After, the page above, never cached. */
export function backSoonResponse(): Response {
  return new Response(backSoonPage(), {
    status: 503,
    headers: {
      ...BACK_SOON_HEADERS,
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
    },
  });
}
