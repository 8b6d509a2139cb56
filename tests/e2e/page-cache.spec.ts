import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { APP_PORT } from "./support/env";

// Decision 0104: visitors' feed, post and media pages come from a few seconds of cache,
// in the built app as deployed. On Duke's host. Any write on a host clears that host's pages,
// and messages.spec.ts may write on Duke's host at the same moment: so a page is read until it
// is served from the cache (the write that cleared it has ended), before a test relies on it.
const host = `duke.localhost:${APP_PORT}`;

/** Node does not resolve *.localhost as browsers do: the request goes to 127.0.0.1 with the campus's Host. */
function campusUrl(path: string): string {
  return `http://127.0.0.1:${APP_PORT}${path}`;
}
const asCampus = { host };

function state(response: APIResponse): string | undefined {
  return response.headers()["x-page-cache"];
}

/** Reads `url` until the cache serves it: the last page rendered, and the answer from the cache. */
async function untilCached(request: APIRequestContext, url: string, headers: Record<string, string> = {}) {
  let rendered = await request.get(url, { headers: asCampus });
  expect(state(rendered)).toBe("miss");
  for (let attempt = 0; attempt < 20; attempt++) {
    const again = await request.get(url, { headers: { ...asCampus, ...headers } });
    if (state(again) === "hit") return { rendered, cached: again };
    rendered = again;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} was never served from the cache`);
}

function nonceOf(response: APIResponse): string | undefined {
  return response.headers()["content-security-policy"]?.match(/'nonce-([^']+)'/)?.[1];
}

test("a visitor's second visit is served from the cache, compressed, with the policy its scripts need", async ({
  request,
}) => {
  const url = campusUrl(`/media?visit=${Date.now()}`);
  const { rendered: first, cached: second } = await untilCached(request, url, {
    "accept-encoding": "gzip, br",
  });
  expect(first.status()).toBe(200);
  const html = await first.text();
  expect(html).toMatch(/<title>[^<]*Duke/);
  expect(second.headers()["content-encoding"]).toBe("br");
  expect(await second.text()).toBe(html);
  const nonce = nonceOf(second);
  expect(nonce).toBeTruthy();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

test("someone with a session or a pending message is never served a cached page", async ({ request }) => {
  const url = campusUrl(`/home?visit=${Date.now()}`);
  await request.get(url, { headers: asCampus });
  for (const cookie of ["better-auth.session_token=anything", "cbs_toast=anything"]) {
    const response = await request.get(url, { headers: { ...asCampus, cookie } });
    expect(response.status()).toBe(200);
    expect(state(response)).toBeUndefined();
  }
});

test("a write on the campus clears its cached pages", async ({ playwright }) => {
  // Two browsers' worth of cookies: the writer's answer may set some, the visitor keeps none.
  const visitor = await playwright.request.newContext();
  const writer = await playwright.request.newContext();
  const url = campusUrl(`/home?visit=${Date.now()}`);
  await untilCached(visitor, url);
  // A failed sign-in is still a POST: the cache cannot tell which writes change a page.
  await writer.post(campusUrl("/login"), {
    headers: asCampus,
    form: { email: "nobody@example.com", password: "wrong-password" },
    maxRedirects: 0,
  });
  expect(state(await visitor.get(url, { headers: asCampus }))).toBe("miss");
  await visitor.dispose();
  await writer.dispose();
});
