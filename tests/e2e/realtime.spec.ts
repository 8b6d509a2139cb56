import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0212: one live-event stream per browser, shared by its tabs. The events
// come from the development-only POST /dev/realtime-event (decision 0215); the chat and
// notification specs exercise the same path with real messages.

const html = (page: Page) => page.locator("html");

async function publish(page: Page, type: string): Promise<number> {
  const response = await page.context().request.post(hostUrl(null, "/dev/realtime-event"), {
    data: { type, data: { note: type } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { seq: number }).seq;
}

test("two tabs of one browser share one stream; both receive each event; the other tab takes over when the first closes", async ({
  context,
}) => {
  await createStudent(context, { label: "realtime" });
  const streams: string[] = [];
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/events") streams.push(request.url());
  });

  const first = await context.newPage();
  await first.goto(hostUrl(null, "/home"));
  await hydrated(first);
  await expect(html(first)).toHaveAttribute("data-realtime-role", "leader");
  const second = await context.newPage();
  await second.goto(hostUrl(null, "/home"));
  await hydrated(second);
  await expect(html(second)).toHaveAttribute("data-realtime-seq", "0");

  const seq = await publish(first, "test");
  for (const page of [first, second])
    await expect(html(page)).toHaveAttribute("data-realtime-seq", String(seq));
  expect(streams).toHaveLength(1);
  await expect(html(second)).not.toHaveAttribute("data-realtime-role", "leader");

  // The leader tab closes: the other opens the stream and goes on from what it had.
  await first.close();
  await expect(html(second)).toHaveAttribute("data-realtime-role", "leader");
  const next = await publish(second, "test");
  await expect(html(second)).toHaveAttribute("data-realtime-seq", String(next));
  expect(streams).toHaveLength(2);
});

test("a visitor opens no stream", async ({ page }) => {
  const streams: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/events") streams.push(request.url());
  });
  await page.goto(hostUrl(null, "/home"));
  await hydrated(page);
  await expect(html(page)).not.toHaveAttribute("data-realtime-role", /.*/);
  expect(streams).toEqual([]);
  // And the endpoint refuses one asked for directly.
  expect((await page.request.get(hostUrl(null, "/events"))).status()).toBe(401);
});
