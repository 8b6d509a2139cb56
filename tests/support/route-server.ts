import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { AppLoadContext, EntryContext, ServerBuild } from "react-router";
import { CampusDirectory } from "../../server/campuses/directory";
import type { AppContext } from "../../server/context";
import type { TestContext } from "./test-context";

export interface RouteServer {
  /** http://127.0.0.1:{port} */
  base: string;
  close(): Promise<void>;
}

/** The app's own error hooks (app/entry.server.tsx). */
export interface AppEntry {
  handleError: unknown;
  handleDataRequest: unknown;
  default: (...args: [Request, number, Headers, EntryContext, AppLoadContext]) => unknown;
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
  options: {
    /** The context the routes get, when not t.ctx (one whose database is down, say). */
    ctx?: AppContext;
    /**
     * The app's own error hooks (app/entry.server.tsx: handleError, handleDataRequest, and the
     * document's outage answer) in front of the JSON document, to see what a client gets.
     */
    appEntry?: AppEntry;
  } = {},
): Promise<RouteServer> {
  const campuses = new CampusDirectory(t.ctx.db, t.ctx.config.campusHosts);
  await campuses.refresh();
  const ctx = options.ctx ?? t.ctx;
  const appEntry = options.appEntry;
  const build = routeServerBuild(routes, appEntry);
  const app = express();
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext(req): AppLoadContext {
        return {
          app: ctx,
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

/** The build startRouteServer serves (exported for tests of the whole app, server/http/app.ts startApp). */
export function routeServerBuild(
  routes: { id: string; path: string; module: object }[],
  appEntry?: AppEntry,
): ServerBuild {
  return {
    entry: {
      module: {
        ...(appEntry
          ? { handleError: appEntry.handleError, handleDataRequest: appEntry.handleDataRequest }
          : {}),
        default: (
          request: Request,
          status: number,
          headers: Headers,
          entryContext: EntryContext,
          loadContext: AppLoadContext,
        ) =>
          // The app's document answer only when it does not render (a database outage, decision 0470).
          (loadContext.databaseUnavailable && appEntry
            ? appEntry.default(request, status, headers, entryContext, loadContext)
            : null) ??
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
}
