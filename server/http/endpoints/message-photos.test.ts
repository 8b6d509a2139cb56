import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, pngFile, type TestMember } from "../../../tests/support/factories";
import { createTestContext, type TestContext } from "../../../tests/support/test-context";
import { MESSAGE_PHOTO_URL_PREFIX } from "../../chats/content";
import { startConversation } from "../../chats/conversations";
import { listMessages } from "../../chats/messages";
import type { AppContext } from "../../context";
import { createS3Storage } from "../../media/s3-storage";
import { MEDIA_URL_PREFIX, type MediaStorage } from "../../media/storage";
import { serveMediaFiles, serveMessagePhotos } from "./media-files";

// Decision 0463: chat photos go to the chat's two members only, `private`, at an
// address nobody can work out, from local storage and from a bucket alike.

let t: TestContext;
let ana: TestMember;
let ben: TestMember;
let cy: TestMember;
let s3: { storage: MediaStorage; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestContext();
  ana = await createTestMember(t, { fullName: "Ana Sender" });
  ben = await createTestMember(t, { fullName: "Ben Receiver" });
  cy = await createTestMember(t, { fullName: "Cy Outsider" });
  const directory = mkdtempSync(path.join(tmpdir(), "cbs-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: "media" }],
  });
  const { port } = await server.run();
  s3 = {
    storage: createS3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: "media",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      region: "us-east-1",
      forcePathStyle: true,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
afterAll(async () => {
  await s3.close();
  await t.close();
});

/** The app's two media routes over one store, as server/http/app.ts mounts them. */
async function serve(ctx: AppContext) {
  const app = express();
  app.use(MEDIA_URL_PREFIX, serveMediaFiles(ctx.storage));
  app.use(
    MESSAGE_PHOTO_URL_PREFIX,
    serveMessagePhotos({
      ctx,
      auth: t.auth,
      storage: ctx.storage,
      campusOf: (host) => t.ctx.campuses.forHost(host).id,
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** Over node:http, as fetch() does not let a caller set Host. */
    get(url: string, options: { cookie?: string; host?: string } = {}) {
      const headers: Record<string, string> = {};
      if (options.cookie) headers.cookie = options.cookie;
      // 127.0.0.1 serves OU; `{slug}.localhost` another campus (docs/contract.md 'Campuses and hosts').
      if (options.host) headers.host = options.host;
      return new Promise<{ status: number; cacheControl: string | undefined }>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path: url, headers }, (response) => {
          response.resume();
          response.once("end", () =>
            resolve({ status: response.statusCode ?? 0, cacheControl: response.headers["cache-control"] }),
          );
        })
          .once("error", reject)
          .end();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const store of ["local storage", "an S3 bucket"] as const) {
  describe(`chat photos from ${store} (decision 0463)`, () => {
    it("go to the chat's two members, private; a third student, a visitor and another campus's host get 404", async () => {
      const ctx: AppContext = store === "local storage" ? t.ctx : { ...t.ctx, storage: s3.storage };
      const { chatId } = await startConversation(ctx, ana.viewer, {
        recipientId: ben.id,
        files: [await pngFile()],
      });
      // The newest message: the chat may hold earlier ones (the other store's round).
      const message = (await listMessages(ctx, ana.viewer, chatId)).items.at(-1);
      const photo = message?.photo;
      if (!message || !photo) throw new Error("expected a photo");
      const server = await serve(ctx);
      try {
        for (const url of [photo.url, photo.thumbUrl]) {
          expect(url.startsWith(`${MESSAGE_PHOTO_URL_PREFIX}/${message.id}/`)).toBe(true);
          for (const member of [ana, ben]) {
            const answer = await server.get(url, { cookie: member.cookie });
            expect(answer.status).toBe(200);
            expect(answer.cacheControl).toMatch(/^private\b/);
          }
          expect((await server.get(url, { cookie: cy.cookie })).status).toBe(404);
          expect((await server.get(url)).status).toBe(404);
          expect((await server.get(url, { cookie: ana.cookie, host: "ut.localhost" })).status).toBe(404);
          // The public media route never serves a chat photo, to anyone.
          const publicUrl = `${MEDIA_URL_PREFIX}/images/messages${url.slice(MESSAGE_PHOTO_URL_PREFIX.length)}`;
          expect((await server.get(publicUrl, { cookie: ana.cookie })).status).toBe(404);
          expect((await server.get(publicUrl)).status).toBe(404);
        }
      } finally {
        await server.close();
      }
    });
  });
}

it("gives each chat photo an address nobody can work out from the photo (128 random bits)", async () => {
  const photo = await pngFile();
  const names: string[] = [];
  for (let round = 0; round < 2; round++) {
    const { chatId } = await startConversation(t.ctx, ana.viewer, { recipientId: cy.id, files: [photo] });
    const { items } = await listMessages(t.ctx, ana.viewer, chatId);
    names.push(items.at(-1)?.photo?.url.split("/").at(-1) ?? "");
  }
  const [first, second] = names;
  expect(first).toMatch(/^[0-9a-f]{32}-/);
  // The same photo sent twice: two unrelated names.
  expect(first?.slice(0, 32)).not.toBe(second?.slice(0, 32));
});
