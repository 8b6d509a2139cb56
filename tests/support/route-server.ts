import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { AppLoadContext, EntryContext, ServerBuild } from "react-router";
import { CampusDirectory } from "../../server/campuses/directory";
import type { TestContext } from "./test-context";

export interface RouteServer {
  /** http://127.0.0.1:{port} */
  base: string;
  close(): Promise<void>;
}

/** A server build's settings as the app's own: server rendering, lazy route discovery. */
export const SERVER_BUILD_SETTINGS = {
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as const;

/**
 * Real route modules served over HTTP through `@react-router/express`, as server/http/app.ts
 * serves them (the Host header picks the campus and becomes `request.url`), without the Vite
 * build: a stand-in root and a document entry that answers the route data as JSON instead of
 * rendering React, so a test sees what an action did to a request a client sent byte for byte.
 */
export async function startRouteServer(
  t: TestContext,
  routes: { id: string; path: string; module: object }[],
): Promise<RouteServer> {
  const campuses = new CampusDirectory(t.ctx.db, t.ctx.config.campusHosts);
  await campuses.refresh();
  const build = {
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers, entryContext: EntryContext) =>
          Response.json(
            {
              actionData: entryContext.staticHandlerContext.actionData,
              loaderData: entryContext.staticHandlerContext.loaderData,
            },
            { status, headers },
          ),
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      ...Object.fromEntries(
        routes.map((route) => [
          route.id,
          { id: route.id, parentId: "root", path: route.path, module: route.module },
        ]),
      ),
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "test" },
    ...SERVER_BUILD_SETTINGS,
  } as unknown as ServerBuild;
  const app = express();
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext(req): AppLoadContext {
        return {
          app: t.ctx,
          auth: t.auth,
          campuses,
          campus: campuses.forHost(req.headers.host),
          nonce: "",
          clientIp: req.ip ?? null,
        };
      },
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
