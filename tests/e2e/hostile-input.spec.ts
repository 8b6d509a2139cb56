import { type APIRequestContext, expect, test } from "@playwright/test";
import fc from "fast-check";
import { POST_LISTS } from "../../server/posts/list-names.shared";
import { plainTextToRichText } from "../../server/posts/rich-text.shared";
import { APP_PORT } from "./support/env";
import { createStudent } from "./support/student";

// docs/product/outages-and-errors.md: every bad input gets a 4xx with a message and changes nothing; none may get a
// 5xx. Generated requests (fast-check) against every action and every list, signed in and
// signed out, as the built app is deployed. On UCF's host, which no other spec writes to.

const CAMPUS_HOST = `ucf.localhost:${APP_PORT}`;
const base = `http://127.0.0.1:${APP_PORT}`;

/** Field names the app's forms use, and a few it does not. */
const FIELD_NAMES = [
  "intent",
  "email",
  "password",
  "fullName",
  "first",
  "last",
  "code",
  "token",
  "currentPassword",
  "newPassword",
  "confirmPassword",
  "schoolEmail",
  "phone",
  "gender",
  "birthDate",
  "month",
  "day",
  "year",
  "username",
  "bio",
  "text",
  "plainText",
  "category",
  "returnTo",
  "redirect_to",
  "postId",
  "commentId",
  "enhanced",
  "agree",
  "files",
  "photo",
  "reason",
  "targetKind",
  "targetId",
  "comment",
  "goBack",
];

const INTENTS = [
  "log-in",
  "send-link",
  "verify-code",
  "resend-code",
  "resend-pin",
  "save-bio",
  "upload-photo",
  "update-profile",
  "claim-account",
  "report-content",
  "toggle-save",
  "delete-post",
  "delete-comment",
];

/** Strings that broke the app before (docs/product/outages-and-errors.md) and the generator's own. */
const hostileString = fc.oneof(
  fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "/\t/evil.example",
    "/\r\nSet-Cookie: x=1",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "%00",
    "../../etc/passwd",
    "{}",
    "[]",
    '{"root":{"children":[]}}',
    "null",
    "\uD800",
    "x".repeat(10_000),
    "2026-13-45",
    // docs/product/outages-and-errors.md: a raw ideographic space (no Location header may hold it), encoded and not.
    "/\u3000/x",
    "/%E3%80%80/x",
    // A well-formed post text with a NUL character, which PostgreSQL cannot store.
    JSON.stringify(plainTextToRichText("a\u0000b")),
    "-1",
    "1e309",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.uuid().map(String),
);

interface GeneratedRequest {
  path: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: Buffer | string;
  form?: Record<string, string>;
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
}

function requestArbitrary(paths: fc.Arbitrary<string>): fc.Arbitrary<GeneratedRequest> {
  const fields = fc.dictionary(
    fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 12 })),
    hostileString,
    {
      maxKeys: 6,
    },
  );
  const withIntent = fc
    .tuple(fields, fc.option(fc.oneof(fc.constantFrom(...INTENTS), hostileString), { nil: undefined }))
    .map(([values, intent]) => (intent === undefined ? values : { ...values, intent }));
  const asData = fc.boolean();
  const post = fc.oneof(
    fc.record({ kind: fc.constant("form" as const), fields: withIntent }),
    fc.record({
      kind: fc.constant("multipart" as const),
      fields: withIntent,
      file: fc.option(fc.uint8Array({ maxLength: 512 }), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant("json" as const), fields: withIntent }),
    fc.record({
      kind: fc.constant("raw" as const),
      bytes: fc.uint8Array({ maxLength: 256 }),
      contentType: fc.constantFrom(
        "multipart/form-data",
        "multipart/form-data; boundary=xyz",
        "multipart/form-data; boundary=",
        "application/x-www-form-urlencoded",
        "application/json",
        "text/plain",
        "application/octet-stream",
      ),
    }),
  );
  return fc.tuple(paths, asData, post).map(([path, data, body]): GeneratedRequest => {
    const target = data ? toDataPath(path) : path;
    switch (body.kind) {
      case "form":
        return { path: target, method: "POST", headers: {}, form: body.fields };
      case "multipart": {
        const multipart: GeneratedRequest["multipart"] = { ...body.fields };
        if (body.file) {
          multipart.files = { name: "x.png", mimeType: "image/png", buffer: Buffer.from(body.file) };
        }
        return { path: target, method: "POST", headers: {}, multipart };
      }
      case "json":
        return {
          path: target,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body.fields),
        };
      default:
        return {
          path: target,
          method: "POST",
          headers: { "content-type": body.contentType },
          body: Buffer.from(body.bytes),
        };
    }
  });
}

/** React Router's data URL of a page: its fetchers post there. */
function toDataPath(path: string): string {
  const url = new URL(path, base);
  url.pathname = `${url.pathname.replace(/\/+$/, "") || "/_root"}.data`;
  return `${url.pathname}${url.search}`;
}

async function send(request: APIRequestContext, generated: GeneratedRequest) {
  return request.fetch(`${base}${generated.path}`, {
    method: generated.method,
    headers: { host: CAMPUS_HOST, ...generated.headers },
    data: generated.body,
    form: generated.form,
    multipart: generated.multipart,
    maxRedirects: 0,
    failOnStatusCode: false,
  });
}

/**
 * Sends `runs` generated requests and returns those answered with a 5xx. Every request is
 * sent, rather than stopping at the first failure, so one run lists every kind that fails.
 * HOSTILE_INPUT_SEED replays a run (its seed is in the failure message).
 */
async function serverErrors(
  request: APIRequestContext,
  arbitrary: fc.Arbitrary<GeneratedRequest>,
  runs: number,
  seed: number,
): Promise<string[]> {
  const failures: string[] = [];
  for (const generated of fc.sample(arbitrary, { numRuns: runs, seed })) {
    const response = await send(request, generated);
    if (response.status() >= 500) failures.push(`${response.status()} ${JSON.stringify(generated)}`);
  }
  return failures;
}

test("no generated input gets a server error, signed in or not, on any action or list", async ({
  page,
  playwright,
}) => {
  test.setTimeout(300_000);
  await createStudent(page.context(), { campus: "ucf", label: "hostile" });
  // Node does not resolve *.localhost as browsers do: requests go to 127.0.0.1 with the campus's
  // Host and the browser's cookies for it.
  const cookies = await page.context().cookies(`http://${CAMPUS_HOST}`);
  const signedIn = await playwright.request.newContext({
    extraHTTPHeaders: { cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") },
  });
  const asCampus = { host: CAMPUS_HOST };
  const posted = await signedIn.post(`${base}/create/post`, {
    headers: asCampus,
    multipart: { text: JSON.stringify(plainTextToRichText(`Hostile input target ${Date.now()}`)) },
    maxRedirects: 0,
  });
  expect(posted.status()).toBe(302);
  const feed = await (await signedIn.get(`${base}/home`, { headers: asCampus })).text();
  const postId = feed.match(/\/post\/([0-9a-f-]{36})/)?.[1];
  expect(postId).toBeTruthy();
  const profile = await (await signedIn.get(`${base}/profile`, { headers: asCampus })).text();
  const username = profile.match(/"username":"([^"]+)"/)?.[1] ?? "nobody";

  const actionPaths = fc.constantFrom(
    "/login",
    "/register",
    "/verify",
    "/forgotpassword",
    "/reset-password",
    "/reset-password?token=x",
    "/login/sent",
    "/user_registration",
    "/logout",
    "/profile",
    `/${username}`,
    "/profile/edit",
    "/profile/set-up",
    "/create/post",
    "/create/post?goBack=%00",
    `/create/comment/${postId}`,
    "/create/comment/not-a-uuid",
    `/post/${postId}`,
    "/post/00000000-0000-0000-0000-000000000000",
    "/post/%00",
    "/settings/account/screen_name",
    "/settings/account/password",
    "/settings/account/email",
    "/settings/account/verify_email",
    "/settings/account/school_email",
    "/settings/account/verify_school_email",
    "/settings/account/graduation_year",
    "/settings/account/phone",
    "/settings/account/gender",
    "/settings/account/birth_date",
    "/home",
  );
  const actions = requestArbitrary(actionPaths);

  const listPaths = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...POST_LISTS).map((list) => `/api/lists/${list}`),
        fc.constantFrom(
          "/home",
          "/media",
          `/post/${postId}`,
          `/${username}`,
          "/saved",
          "/search_schools",
          "/search?q=hostile",
          "/search?q=hostile&show=media",
          "/search?q=hostile&sort=price_asc",
          "/search?q=hostile&sort=price_desc",
          "/search/data?q=hostile",
        ),
      ),
      fc.dictionary(
        fc.constantFrom("cursor", "category", "user", "tab", "q", "filter", "goBack"),
        hostileString,
        {
          maxKeys: 3,
        },
      ),
      fc.oneof(
        hostileString,
        fc
          .tuple(fc.string({ maxLength: 30 }), hostileString)
          .map(([time, id]) => Buffer.from(JSON.stringify([time, id])).toString("base64url")),
        // docs/product/outages-and-errors.md: a date of the cursor's shape that names no day (a 500 from the search's cursor).
        fc
          .tuple(
            fc.constantFrom("newest", "price_asc", "price_desc"),
            fc.constantFrom("2026-02-30", "2025-02-29", "2026-04-31"),
          )
          .map(([sort, day]) => {
            const time = `${day}T12:00:00.000000Z`;
            const values = sort === "newest" ? [time, postId] : [null, time, postId];
            return Buffer.from(JSON.stringify([sort, ...values])).toString("base64url");
          }),
        fc
          .constantFrom("2026-02-30", "2025-02-29", "2026-04-31")
          .map((day) =>
            Buffer.from(JSON.stringify([`${day}T12:00:00.000000Z`, postId])).toString("base64url"),
          ),
        fc
          .date({ noInvalidDate: false })
          .map((date) =>
            Buffer.from(
              JSON.stringify([
                `${String(date.getUTCFullYear()).padStart(4, "0")}-13-32T25:61:61.000000Z`,
                postId,
              ]),
            ).toString("base64url"),
          ),
      ),
    )
    .map(([path, query, cursor]) => {
      const params = new URLSearchParams(query);
      params.set("cursor", cursor);
      return `${path}${path.includes("?") ? "&" : "?"}${params.toString()}`;
    });
  const lists = listPaths.map((path): GeneratedRequest => ({ path, method: "GET", headers: {} }));

  const visitor = await playwright.request.newContext();
  const seed = Number(process.env.HOSTILE_INPUT_SEED) || Date.now();
  const runs = Number(process.env.HOSTILE_INPUT_RUNS) || 150;
  // Signing out midway would make the rest a visitor's run.
  const signedInActions = actions.filter((generated) => !generated.path.startsWith("/logout"));
  const failures = [
    ...(await serverErrors(signedIn, signedInActions, runs, seed)),
    ...(await serverErrors(signedIn, lists, runs, seed)),
    ...(await serverErrors(visitor, actions, runs, seed)),
    ...(await serverErrors(visitor, lists, runs, seed)),
  ];
  expect(failures, `server errors (HOSTILE_INPUT_SEED=${seed})`).toEqual([]);

  // Still serving.
  expect((await visitor.get(`${base}/healthz`)).status()).toBe(200);
  await visitor.dispose();
  await signedIn.dispose();
});
