/**
 * Decision 0465: the redirects out of the boost form, the checkout and the payment
 * return pages replace the browser's history entry (React Router's `X-Remix-Replace`, what its
 * `replace()` sets), so the browser's own Back never reopens a finished checkout. Without
 * JavaScript the header is ignored, and a finished checkout's page redirects onwards anyway.
 * (The ads pages' refusals go through the one adapter, app/lib/errors.server.ts, decision 0490.)
 */
export const REPLACE_HISTORY = { headers: { "X-Remix-Replace": "true" } } satisfies ResponseInit;
