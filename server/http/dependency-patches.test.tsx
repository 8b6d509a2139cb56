import { useContext } from "react";
import { renderToString } from "react-dom/server";
import {
  createRequestHandler,
  createStaticHandler,
  createStaticRouter,
  type EntryContext,
  Outlet,
  type ServerBuild,
  ServerRouter,
  UNSAFE_DataRouterContext,
} from "react-router";
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../scripts/patch-dependencies.js";

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

/** Decision 0410: what the installed React Router does once the patches are applied. */
describe("React Router as patched", () => {
  it("converts the same routes into data routes once", async () => {
    const routes = [{ id: "root", path: "/", children: [{ id: "home", path: "home" }] }];
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request("http://localhost/home"));
    if (context instanceof Response) throw new Error("expected a router context");
    const first = createStaticRouter(routes, context);
    const second = createStaticRouter(routes, context);
    expect(second.routes).toBe(first.routes);
    expect(first.state.matches.map((match) => match.route.id)).toEqual(["root", "home"]);
  });

  it("renders every page of a build from one set of route objects", async () => {
    seenRoutes.length = 0;
    const build = {
      entry: {
        module: {
          default: (request: Request, status: number, headers: Headers, context: EntryContext) =>
            new Response(renderToString(<ServerRouter context={context} url={request.url} />), {
              status,
              headers,
            }),
        },
      },
      routes: {
        root: { id: "root", path: "", module: { default: () => <Outlet /> } },
        page: { id: "page", parentId: "root", path: ":name", module: { default: Page } },
      },
      assets: {
        entry: { module: "/entry.js", imports: [] },
        routes: {
          root: { id: "root", path: "", module: "/root.js", hasLoader: false },
          page: { id: "page", parentId: "root", path: ":name", module: "/page.js", hasLoader: false },
        },
        url: "/manifest.js",
        version: "test",
      },
      publicPath: "/",
      assetsBuildDirectory: "build/client",
      future: {},
      ssr: true,
      isSpaMode: false,
      prerender: [],
      routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    } as unknown as ServerBuild;
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
});
