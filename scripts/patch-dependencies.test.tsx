import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ReactNode, useContext } from "react";
import { renderToString } from "react-dom/server";
import {
  createRequestHandler,
  createStaticHandler,
  createStaticRouter,
  type EntryContext,
  Outlet,
  Scripts,
  type ServerBuild,
  ServerRouter,
  UNSAFE_DataRouterContext,
} from "react-router";
import { describe, expect, it } from "vitest";
import { SERVER_BUILD_SETTINGS } from "../tests/support/route-server";
import { applyPatch, DEPENDENCY_PATCHES } from "./patch-dependencies.js";

describe("applyPatch", () => {
  const patch = {
    marker: "cached ??",
    edits: [
      { find: /let routes = (\w+)\(\);/, replace: "let routes = cached ?? $1();" },
      { find: /\nfunction render\(/, replace: "\nlet cached;\nfunction render(" },
    ],
  };
  const original = "\nfunction render() {\n  let routes = build();\n}";

  it("makes every edit once and then knows it is done", () => {
    const first = applyPatch(original, patch);
    expect(first).toEqual({
      status: "applied",
      text: "\nlet cached;\nfunction render() {\n  let routes = cached ?? build();\n}",
    });
    expect(applyPatch(first.text, patch)).toEqual({ status: "already", text: first.text });
  });

  it("leaves a module where an edit's text is missing or there twice as it is", () => {
    const missing = "\nfunction render() {\n  let routes = [];\n}";
    expect(applyPatch(missing, patch)).toEqual({ status: "absent", text: missing });
    const twice = `${original}\n${original}`;
    expect(applyPatch(twice, patch)).toEqual({ status: "absent", text: twice });
  });
});

/** The route objects each render of `Page` was given. */
const seenRoutes: unknown[] = [];

function Page() {
  const data = useContext(UNSAFE_DataRouterContext);
  seenRoutes.push(data?.router.routes);
  return <p>page {data?.router.state.location.pathname}</p>;
}

type TestRoute = [id: string, path: string, parentId: string | undefined, Component: () => ReactNode];

/**
 * A build of these routes whose document is `<ServerRouter>` rendered to a string. Each call makes
 * new objects, so React Router's kept values for it start empty.
 */
function testBuild(routes: TestRoute[]): ServerBuild {
  return {
    entry: {
      module: {
        default: (request: Request, status: number, headers: Headers, context: EntryContext) =>
          new Response(renderToString(<ServerRouter context={context} url={request.url} />), {
            status,
            headers,
          }),
      },
    },
    routes: Object.fromEntries(
      routes.map(([id, path, parentId, Component]) => [
        id,
        { id, path, parentId, module: { default: Component } },
      ]),
    ),
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: Object.fromEntries(
        routes.map(([id, path, parentId]) => [
          id,
          { id, path, parentId, module: `/${id}.js`, imports: [], hasLoader: false, hasAction: false },
        ]),
      ),
      url: "/manifest.js",
      version: "test",
    },
    ...SERVER_BUILD_SETTINGS,
  } as unknown as ServerBuild;
}

/** A build whose root renders `<Scripts />` under pages of several shapes. */
function scriptsBuild(): ServerBuild {
  const root = () => (
    <>
      <Outlet />
      <Scripts />
    </>
  );
  const paths = { a: "a/:x", "a-splat": "a/*", b: "b/:x", "b-c": "b/:x/c", missing: "*" };
  return testBuild([
    ["root", "", undefined, root],
    ...Object.entries(paths).map(([id, path]): TestRoute => [id, path, "root", () => <p>{id}</p>]),
  ]);
}
const handleWithScripts = createRequestHandler(scriptsBuild(), "production");

/** Decision 0410: what the installed React Router does once the patches are applied. */
describe("React Router as patched", () => {
  it("has every patch in both its ES and CommonJS modules, or the kinds it names (npm install applied them)", () => {
    for (const patch of DEPENDENCY_PATCHES) {
      const dist = path.resolve("node_modules", patch.packageName, "dist");
      const patched = readdirSync(dist, { recursive: true, encoding: "utf8" })
        .filter(
          (file) =>
            /\.m?js$/.test(file) && readFileSync(path.join(dist, file), "utf8").includes(patch.marker),
        )
        .map((file) => path.extname(file));
      // @react-router/dev's text is in its CommonJS modules only (decision 0472).
      expect(new Set(patched), patch.name).toEqual(new Set(patch.moduleKinds ?? [".mjs", ".js"]));
    }
  });

  it("converts any other caller's routes anew on every call, as they may change in place", async () => {
    const routes = [{ id: "root", path: "/", children: [{ id: "home", path: "home" }] }];
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request("http://localhost/home"));
    if (context instanceof Response) throw new Error("expected a router context");
    const first = createStaticRouter(routes, context);
    const second = createStaticRouter(routes, context);
    expect(second.routes).not.toBe(first.routes);
    expect(second.state.matches.map((match) => match.route.id)).toEqual(["root", "home"]);
  });

  it("renders every page of a build from one set of route objects", async () => {
    seenRoutes.length = 0;
    const build = testBuild([
      ["root", "", undefined, () => <Outlet />],
      ["page", ":name", "root", Page],
    ]);
    const handle = createRequestHandler(build, "production");

    const first = await handle(new Request("http://localhost/one"));
    const second = await handle(new Request("http://localhost/two"));

    expect(await first.text()).toContain("page <!-- -->/one");
    expect(await second.text()).toContain("page <!-- -->/two");
    expect(seenRoutes).toHaveLength(2);
    expect(seenRoutes[1]).toBe(seenRoutes[0]);

    // A development rebuild gives a route a new module: its pages use it at once.
    build.routes.page = { ...build.routes.page, module: { default: () => <p>rebuilt</p> } } as never;
    const rebuilt = await handle(new Request("http://localhost/three"));
    expect(await rebuilt.text()).toContain("rebuilt");
  });

  it("writes each page's route modules script for its own routes and path", async () => {
    const scriptsOf = async (url: string) => {
      const html = await (await handleWithScripts(new Request(url))).text();
      const script = html.match(/<script type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "";
      return script.replace(/&quot;/g, '"');
    };
    const first = await scriptsOf("http://localhost/a/1");
    const sameShape = await scriptsOf("http://localhost/a/2");
    const other = await scriptsOf("http://localhost/b/1");
    expect(first).toContain('import * as route1 from "/a.js";');
    expect(first).toMatch(/"a": \{/);
    expect(sameShape).toBe(first);
    expect(other).toContain('import * as route1 from "/b.js";');
    expect(other).not.toContain("/a.js");
  });

  it("writes, from its kept scripts, exactly what a fresh render writes", async () => {
    const urls = [
      "/a/1",
      "/a/2",
      "/a//b///",
      "/a//b/c",
      "/a/b/c/d",
      "/b/1",
      "/b/1/c",
      "/b//1//c/",
      "/b/2/c",
      "/nothing/here",
      "/nothing/else",
      "/%C3%A9t%C3%A9/x",
      "/",
    ];
    for (const url of [...urls, ...urls.reverse()]) {
      const kept = await (await handleWithScripts(new Request(`http://localhost${url}`))).text();
      const fresh = createRequestHandler(scriptsBuild(), "production");
      expect(kept, url).toBe(await (await fresh(new Request(`http://localhost${url}`))).text());
    }
  });
});
