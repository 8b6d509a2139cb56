import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getViewerFromHeaders } from "../../server/accounts/viewer";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { participationRefusal } from "../accounts/gates.shared";
import { loadConfig } from "../config";
import { mountTestFixtures, TEST_STUDENT_PATH, type TestStudent } from "./test-student";

// Decision 0155: the end-to-end fixture endpoint exists only outside production
// and only when the process opted in with TEST_FIXTURES=1; in production it is not there at all.

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const t of contexts) await t.close();
});

/** The app's configuration from these variables, as main.js would load it. */
function configFrom(env: Record<string, string>) {
  return loadConfig({
    APP_SECRET: "test-secret-test-secret-test-secret",
    DATA_DIR: ".tmp/test-data",
    ...env,
  });
}

/** POSTs to the fixture path of an app mounted with this configuration; the answer's status and body. */
async function postFixture(env: Record<string, string>, body: unknown = {}) {
  const t = await createTestContext(configFrom(env));
  contexts.push(t);
  const app = express();
  mountTestFixtures(app, { ctx: t.ctx, auth: t.auth });
  app.use((_req, res) => {
    res.status(404).json({ message: "Not Found" });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${TEST_STUDENT_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { t, status: response.status, body: (await response.json()) as unknown };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("POST /dev/test-student", () => {
  it("is absent in production, even with TEST_FIXTURES=1", async () => {
    const { status } = await postFixture({ NODE_ENV: "production", TEST_FIXTURES: "1" });
    expect(status).toBe(404);
  });

  it("is absent outside production without the opt-in", async () => {
    expect((await postFixture({})).status).toBe(404);
    expect((await postFixture({ TEST_FIXTURES: "0" })).status).toBe(404);
  });

  describe("with TEST_FIXTURES=1 outside production", () => {
    let answer: Awaited<ReturnType<typeof postFixture>>;
    beforeAll(async () => {
      answer = await postFixture({ TEST_FIXTURES: "1" }, { campus: "ut", label: "fixture" });
    });

    it("creates a student of the campus who may post, signed in by the returned cookie", async () => {
      expect(answer.status).toBe(201);
      const student = answer.body as TestStudent;
      expect(student.campusId).toBe("ut");
      const viewer = await getViewerFromHeaders(
        answer.t.ctx,
        answer.t.auth,
        new Headers({ cookie: `${student.cookie.name}=${student.cookie.value}` }),
      );
      expect(viewer?.id).toBe(student.id);
      expect(viewer && participationRefusal(viewer, "post")).toBeNull();
    });

    it("refuses an unknown campus with a 400 and a message", async () => {
      const refused = await postFixture({ TEST_FIXTURES: "1" }, { campus: "nowhere" });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: expect.stringContaining("nowhere") });
    });
  });
});
