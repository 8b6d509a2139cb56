// Changes to installed packages, applied after every `npm install` (package.json "postinstall")
// and before `npm test`. Each replaces exact texts in the package's modules (ES and CommonJS:
// Node and Vitest load different ones) and is written for one version: on any other it is
// skipped with a warning (and its test fails), so an upgrade is a moment to check whether the
// package now does it itself. Why each one exists is in its decision record.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A change to one package: each edit's pattern must match exactly once in a module for the
 * change to be made there; `marker` is a text only a changed module holds; `moduleKinds`, the
 * module files it must be in (ES and CommonJS unless said).
 * @typedef {{
 *   name: string;
 *   packageName: string;
 *   version: string;
 *   marker: string;
 *   edits: { find: RegExp; replace: string }[];
 *   moduleKinds?: string[];
 * }} DependencyPatch
 */

/** @type {DependencyPatch[]} */
export const DEPENDENCY_PATCHES = [
  {
    // Decision 0472: React Router's config loader starts a Vite server of its own with
    // `envFile: false`, which Vite 8 has deprecated for `envDir: false` (the same: no .env file is
    // read), and each one printed a warning into every build's output. The text is in its
    // CommonJS modules only.
    name: "@react-router/dev: the config loader's Vite server reads no .env file without a deprecation warning",
    packageName: "@react-router/dev",
    version: "7.18.4",
    marker: "envDir: false /* cbs: the config loader */",
    moduleKinds: [".js"],
    edits: [
      {
        find: /\n {4}configFile: false,\n {4}envFile: false,\n/,
        replace: "\n    configFile: false,\n    envDir: false /* cbs: the config loader */,\n",
      },
    ],
  },
  {
    // Decision 0472: the same for the child compiler that reads the route modules' exports.
    name: "@react-router/dev: the child compiler reads no .env file without a deprecation warning",
    packageName: "@react-router/dev",
    version: "7.18.4",
    marker: "envDir: false /* cbs: the child compiler */",
    moduleKinds: [".js"],
    edits: [
      {
        find: /\n {10}configFile: false,\n {10}envFile: false,\n/,
        replace: "\n          configFile: false,\n          envDir: false /* cbs: the child compiler */,\n",
      },
    ],
  },
  {
    // Decision 0410: for every page, React Router rebuilt the same route objects from the build's
    // manifest and route modules. They are built again when anything they are built from changes:
    // a route's module (a development rebuild), SPA mode (which a prerendering build switches per
    // request) or the future flags; each page's `routeModules` is a new object with the same
    // modules. The routes are marked as built here, for createStaticRouter's patch below.
    // The ES module calls `createServerRoutes(`, the CommonJS one `_chunk….createServerRoutes.call(void 0, `.
    name: "react-router: ServerRouter builds the route objects once per build",
    packageName: "react-router",
    version: "7.18.4",
    marker: 'Symbol.for("react-router.serverRoutesOfBuild"), { value: true }',
    edits: [
      {
        find: /\nfunction ServerRouter\(\{\n/,
        replace: `
var serverRoutesByBuild = /* @__PURE__ */ new WeakMap();
function sameRouteModules(built, current) {
  let ids = Object.keys(current);
  return ids.length === Object.keys(built).length && ids.every((id) => built[id] === current[id]);
}
function ServerRouter({
`,
      },
      {
        find: /\n {2}let routes = ([\w.]*createServerRoutes(?:\(|\.call\(void 0, ))\n {4}manifest\.routes,\n {4}routeModules,\n {4}context\.future,\n {4}context\.isSpaMode\n {2}\);\n/,
        replace: `
  let built = serverRoutesByBuild.get(manifest.routes);
  if (!built || built.isSpaMode !== context.isSpaMode || built.future !== context.future || !sameRouteModules(built.routeModules, routeModules)) {
    built = {
      routeModules,
      isSpaMode: context.isSpaMode,
      future: context.future,
      routes: $1
        manifest.routes,
        routeModules,
        context.future,
        context.isSpaMode
      )
    };
    Object.defineProperty(built.routes, Symbol.for("react-router.serverRoutesOfBuild"), { value: true });
    serverRoutesByBuild.set(manifest.routes, built);
  }
  let routes = built.routes;
`,
      },
    ],
  },
  {
    // Decision 0410: the data routes made of those same route objects, once for each of them.
    // Only for the routes ServerRouter built and marked: another caller's routes may be changed in
    // place between calls (the static handler resolves `lazy` routes so), and are converted anew.
    name: "react-router: createStaticRouter converts the same routes once",
    packageName: "react-router",
    version: "7.18.4",
    marker: 'routes[Symbol.for("react-router.serverRoutesOfBuild")] === true',
    edits: [
      {
        find: /\nfunction createStaticRouter\(routes, context, opts = \{\}\) \{\n {2}let manifest = \{\};\n {2}let dataRoutes = ([\w.]*convertRoutesToDataRoutes(?:\(|\.call\(void 0, ))\n {4}routes,\n {4}([\w.]*mapRouteProperties),\n {4}void 0,\n {4}manifest\n {2}\);\n/,
        replace: `
var staticDataRoutes = /* @__PURE__ */ new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
  let converted = staticDataRoutes.get(routes);
  if (!converted) {
    let routeManifest = {};
    converted = { manifest: routeManifest, dataRoutes: $1routes, $2, void 0, routeManifest) };
    if (routes[Symbol.for("react-router.serverRoutesOfBuild")] === true) staticDataRoutes.set(routes, converted);
  }
  let { manifest, dataRoutes } = converted;
`,
      },
    ],
  },
  {
    // Decision 0410: every page's script that imports its route modules and lists the routes the
    // browser knows at first (lazy route discovery) was written out anew, matching each ancestor
    // of the page's path against every route. It depends only on the build, the page's matched
    // routes and the path's segments but the last (as getPartialManifest takes them), so it is
    // kept per build under that key. The path is the client's to choose: a key over 512
    // characters is not kept, and at most 500 are, forgotten together when full.
    name: "react-router: Scripts keeps the route modules script of each page shape",
    packageName: "react-router",
    version: "7.18.4",
    marker: "routeModulesScriptKey.length > 512",
    edits: [
      {
        find: /\nfunction Scripts\(scriptProps\) \{\n/,
        replace: `
var routeModulesScriptsByBuild = /* @__PURE__ */ new WeakMap();
function Scripts(scriptProps) {
`,
      },
      {
        find: /\n {4}let routeModulesScript = !isStatic \? " " : `/,
        replace: `
    let routeModulesScriptKey = isStatic && !manifest.hmr ? [
      router.state.location.pathname.split("/").filter(Boolean).slice(0, -1).join("/"),
      matches.map((match) => match.route.id).join(" "),
      router.state.matches.map((match) => match.route.id).join(" ")
    ].join("\\n") : null;
    if (routeModulesScriptKey !== null && routeModulesScriptKey.length > 512) routeModulesScriptKey = null;
    let routeModulesScripts = routeModulesScriptKey === null ? null : routeModulesScriptsByBuild.get(manifest) ?? /* @__PURE__ */ new Map();
    if (routeModulesScripts) routeModulesScriptsByBuild.set(manifest, routeModulesScripts);
    let routeModulesScript = routeModulesScripts?.get(routeModulesScriptKey) ?? (!isStatic ? " " : \``,
      },
      {
        find: /\nimport\(\$\{JSON\.stringify\(manifest\.entry\.module\)\}\);`;\n/,
        replace: `
import(\${JSON.stringify(manifest.entry.module)});\`);
    if (routeModulesScripts && !routeModulesScripts.has(routeModulesScriptKey)) {
      if (routeModulesScripts.size >= 500) routeModulesScripts.clear();
      routeModulesScripts.set(routeModulesScriptKey, routeModulesScript);
    }
`,
      },
    ],
  },
];

/**
 * One module's text with the patch applied: "applied" (changed now), "already" (changed
 * before) or "absent" (not every edit's pattern is there exactly once: the module is left as it is).
 * @param {string} text
 * @param {Pick<DependencyPatch, "marker" | "edits">} patch
 * @returns {{ status: "applied" | "already" | "absent"; text: string }}
 */
export function applyPatch(text, patch) {
  if (text.includes(patch.marker)) return { status: "already", text };
  let result = text;
  for (const edit of patch.edits) {
    const everywhere = new RegExp(edit.find.source, `${edit.find.flags.replace("g", "")}g`);
    if ((text.match(everywhere) ?? []).length !== 1) return { status: "absent", text };
    result = result.replace(edit.find, edit.replace);
  }
  return { status: "applied", text: result };
}

/** @param {string} directory @returns {string[]} */
function moduleFiles(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Applies every patch to the packages under `root`/node_modules.
 * @param {string} root
 * @param {DependencyPatch[]} patches
 * @returns {{ name: string; outcome: "applied" | "already" | "other-version" | "not-installed" | "not-found"; detail: string }[]}
 */
export function patchDependencies(root, patches = DEPENDENCY_PATCHES) {
  return patches.map((patch) => {
    const packageDir = path.join(root, "node_modules", patch.packageName);
    let installed;
    try {
      installed = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")).version;
    } catch {
      return { name: patch.name, outcome: "not-installed", detail: `${patch.packageName} is not installed` };
    }
    if (installed !== patch.version) {
      return {
        name: patch.name,
        outcome: "other-version",
        detail: `${patch.packageName} ${installed} is installed; the patch is for ${patch.version}`,
      };
    }
    let applied = 0;
    let already = 0;
    for (const file of moduleFiles(packageDir)) {
      const result = applyPatch(readFileSync(file, "utf8"), patch);
      if (result.status === "applied") {
        writeFileSync(file, result.text);
        applied += 1;
      } else if (result.status === "already") already += 1;
    }
    if (applied + already === 0) {
      return {
        name: patch.name,
        outcome: "not-found",
        detail: `its text is in no module of ${packageDir}; if an earlier version of this patch is there, reinstall the package (rm -rf ${packageDir} && npm install)`,
      };
    }
    return {
      name: patch.name,
      outcome: applied > 0 ? "applied" : "already",
      detail: `${applied + already} module(s)`,
    };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  let failed = false;
  for (const result of patchDependencies(root)) {
    if (result.outcome === "not-found") failed = true;
    const warn = result.outcome !== "applied" && result.outcome !== "already";
    (warn ? console.warn : console.log)(
      `patch-dependencies: ${result.name}: ${result.outcome} (${result.detail})`,
    );
  }
  // A version mismatch (or no such package) only loses the speed-up; a patch that matches its version but finds
  // nothing means the installed files are not what the patch was written against.
  if (failed) process.exit(1);
}
