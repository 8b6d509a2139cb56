import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
import { applyHunks, applyPatchFile, PATCHES_DIR, parsePatch, patchTarget } from "./patch-dependencies.js";

describe("the patch files", () => {
  const patch = [
    "diff --git a/node_modules/pkg/index.js b/node_modules/pkg/index.js",
    "--- a/node_modules/pkg/index.js",
    "+++ b/node_modules/pkg/index.js",
    "@@ -1,3 +1,4 @@",
    " function render() {",
    "-  let routes = build();",
    "+  let routes = cached ?? build();",
    "+  cached = routes;",
    " }",
    "@@ -5,2 +6,2 @@",
    " // end",
    "-++done",
    "\\ No newline at end of file",
    "+++kept",
    "\\ No newline at end of file",
    "",
  ].join("\n");
  const original = "function render() {\n  let routes = build();\n}\n\n// end\n++done";
  const patched =
    "function render() {\n  let routes = cached ?? build();\n  cached = routes;\n}\n\n// end\n++kept";

  it("are named for one version of one package", () => {
    expect(patchTarget("react-router+7.18.4.patch")).toEqual({
      packageName: "react-router",
      version: "7.18.4",
    });
    expect(patchTarget("@react-router+dev+7.18.4.patch")).toEqual({
      packageName: "@react-router/dev",
      version: "7.18.4",
    });
  });

  it("are applied exactly, once, and a file that is neither before nor after is left alone", () => {
    const [file] = parsePatch(patch);
    expect(file?.file).toBe("node_modules/pkg/index.js");
    const hunks = file?.hunks ?? [];
    expect(applyHunks(original, hunks)).toEqual({ status: "applied", text: patched });
    expect(applyHunks(patched, hunks)).toEqual({ status: "already", text: patched });
    expect(applyHunks(original.replace("build()", "make()"), hunks)).toEqual({ status: "mismatch", line: 1 });
  });

  it("stop the install with what to do when the installed version is another", () => {
    const root = mkdtempSync(path.join(tmpdir(), "cbs-patch-"));
    try {
      mkdirSync(path.join(root, "node_modules/pkg"), { recursive: true });
      writeFileSync(path.join(root, "node_modules/pkg/package.json"), JSON.stringify({ version: "1.1.0" }));
      writeFileSync(path.join(root, "node_modules/pkg/index.js"), original);
      writeFileSync(path.join(root, "pkg+1.0.0.patch"), patch);
      const other = applyPatchFile(root, path.join(root, "pkg+1.0.0.patch"));
      expect(other.outcome).toBe("other-version");
      expect(other.detail).toContain("pkg 1.1.0 is installed, and this patch is for 1.0.0 only");
      expect(other.detail).toContain("docs/upgrading.md");
      expect(readFileSync(path.join(root, "node_modules/pkg/index.js"), "utf8")).toBe(original);

      writeFileSync(path.join(root, "node_modules/pkg/package.json"), JSON.stringify({ version: "1.0.0" }));
      expect(applyPatchFile(root, path.join(root, "pkg+1.0.0.patch")).outcome).toBe("applied");
      expect(readFileSync(path.join(root, "node_modules/pkg/index.js"), "utf8")).toBe(patched);
      expect(applyPatchFile(root, path.join(root, "pkg+1.0.0.patch")).outcome).toBe("already");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("are all in the installed packages (npm install applied them)", () => {
    for (const name of readdirSync(PATCHES_DIR)) {
      for (const { file, hunks } of parsePatch(readFileSync(path.join(PATCHES_DIR, name), "utf8"))) {
        expect(applyHunks(readFileSync(path.resolve(file), "utf8"), hunks).status, `${name}: ${file}`).toBe(
          "already",
        );
      }
    }
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

/** Decisions 0410 and 0510: what the installed React Router does once patches/ is applied. */
describe("React Router as patched", () => {
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
