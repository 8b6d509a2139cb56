// Decision 0107: `npm start` always serves React's production build, whatever NODE_ENV the
// operator set. React picks its development or production build from NODE_ENV when it is
// first imported, so NODE_ENV must say "production" before the server build is loaded.
// The app's own production mode (Secure cookies, no /dev/mail, APP_SECRET required;
// decision 0003) stays under the operator's NODE_ENV, so it is read first and handed to
// the app as its environment.
//
// Decision 0510: packages that choose their build by an export condition instead
// get it from Node's arguments, which must be given when Node starts: `npm start` and every
// harness that starts the built app use PRODUCTION_NODE_ARGS, and main.js says so at start when
// a package it runs on is still its development build.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * Sets `env.NODE_ENV` to "production" for React and returns a copy of the
 * environment as the operator gave it, for the app's configuration.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function selectReactProductionBuild(env) {
  const operatorEnv = { ...env };
  env.NODE_ENV = "production";
  return operatorEnv;
}

/**
 * Node's arguments for the built app (package.json "start", scripts/app-process.ts; a cluster's
 * workers inherit them): the "production" export condition, which selects the production build
 * of every package that offers one by condition (React Router's through patches/, decision 0510).
 */
export const PRODUCTION_NODE_ARGS = Object.freeze(["--conditions=production"]);

/**
 * The files this process runs React Router, React and React DOM's server renderer from, and
 * whether each is the package's production build. React Router is resolved as the server build
 * imports it (same node_modules, same conditions). React and React DOM are CommonJS entries that
 * choose by NODE_ENV; what they chose is in require's cache once loaded, so call this after the
 * app has started (the server build loads React DOM's renderer when it starts).
 * @returns {{ name: string; file: string; production: boolean }[]}
 */
export function dependencyBuilds() {
  // Node's ES module loader puts both files an entry may re-export in the cache, unrun, to read
  // their export names: only those that ran count.
  const cache = createRequire(import.meta.url).cache;
  const loaded = Object.keys(cache).filter((file) => cache[file]?.loaded);
  const chosen = (/** @type {RegExp} */ pattern) =>
    loaded.find((file) => pattern.test(file)) ?? "(not loaded)";
  const builds = [
    { name: "react-router", file: fileURLToPath(import.meta.resolve("react-router")) },
    { name: "react", file: chosen(/[/\\]react[/\\]cjs[/\\]react\.(production|development)\.js$/) },
    {
      name: "react-dom/server",
      file: chosen(/[/\\]react-dom[/\\]cjs[/\\]react-dom-server\.node\.(production|development)\.js$/),
    },
  ];
  return builds.map((build) => ({
    ...build,
    production: /[/\\]dist[/\\]production[/\\]|\.production\.js$/.test(build.file),
  }));
}

/** How main.js's warning about a development build begins (the e2e harness looks for it). */
export const DEVELOPMENT_BUILD_WARNING = "main.js: running the development build of";

/**
 * What main.js prints at start when a package it runs on is its development build (started
 * without PRODUCTION_NODE_ARGS, or React Router upgraded past its patch), else null.
 * @param {{ name: string; file: string; production: boolean }[]} [builds]
 * @returns {string | null}
 */
export function developmentBuildsWarning(builds = dependencyBuilds()) {
  const development = builds.filter((build) => !build.production);
  if (development.length === 0) return null;
  return (
    `${DEVELOPMENT_BUILD_WARNING} ${development.map((build) => `${build.name} (${build.file})`).join(", ")}, ` +
    `with its development checks and warnings. Start the app with \`npm start\` or ` +
    `\`node ${PRODUCTION_NODE_ARGS.join(" ")} main.js\`; after an upgrade, see docs/upgrading.md.`
  );
}
