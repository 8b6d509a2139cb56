import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../server/config";
import {
  DEVELOPMENT_BUILD_WARNING,
  developmentBuildsWarning,
  PRODUCTION_NODE_ARGS,
  selectReactProductionBuild,
} from "./runtime-env.js";

describe("npm start's runtime environment (decision 0107)", () => {
  it("runs React's production build without NODE_ENV, and the app stays out of production mode", () => {
    const env: Record<string, string | undefined> = {
      DATA_DIR: "/tmp/cbs-runtime-env-test",
      APP_SECRET: "x",
    };
    const operatorEnv = selectReactProductionBuild(env);
    expect(env.NODE_ENV).toBe("production");
    expect(loadConfig(operatorEnv).production).toBe(false);
  });

  it("keeps the app's production mode when the operator asks for it", () => {
    const env: Record<string, string | undefined> = {
      NODE_ENV: "production",
      APP_SECRET: "x",
      DATA_DIR: "/tmp/x",
    };
    const operatorEnv = selectReactProductionBuild(env);
    expect(env.NODE_ENV).toBe("production");
    expect(loadConfig(operatorEnv).production).toBe(true);
  });

  it("serves React's production build even when NODE_ENV says development", () => {
    const env: Record<string, string | undefined> = {
      NODE_ENV: "development",
      APP_SECRET: "x",
      DATA_DIR: "/tmp/x",
    };
    const operatorEnv = selectReactProductionBuild(env);
    expect(env.NODE_ENV).toBe("production");
    expect(loadConfig(operatorEnv).production).toBe(false);
  });
});

describe("the production builds the started app runs (decision 0510)", () => {
  /** What this process's node_modules give main.js, started with these Node arguments. */
  function buildsStartedWith(nodeArgs: readonly string[]) {
    // As main.js: NODE_ENV for React, then the server build's imports.
    const script = [
      'import { dependencyBuilds, selectReactProductionBuild } from "./scripts/runtime-env.js";',
      "selectReactProductionBuild(process.env);",
      'await import("react-router"); await import("react"); await import("react-dom/server");',
      "console.log(JSON.stringify(dependencyBuilds()));",
    ].join("\n");
    const out = execFileSync(process.execPath, [...nodeArgs, "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });
    return Object.fromEntries(
      (JSON.parse(out) as { name: string; production: boolean }[]).map((build) => [
        build.name,
        build.production,
      ]),
    );
  }

  it("npm start gives Node the production condition (the e2e and bench starter does by default)", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(`node ${PRODUCTION_NODE_ARGS.join(" ")} scripts/start.js`);
  });

  it("with it, React Router, React and React DOM are their production builds; without it React Router is not", () => {
    expect(buildsStartedWith(PRODUCTION_NODE_ARGS)).toEqual({
      "react-router": true,
      react: true,
      "react-dom/server": true,
    });
    expect(buildsStartedWith([])["react-router"]).toBe(false);
  });

  it("main.js names a development build and how to start without it", () => {
    const warning = developmentBuildsWarning([
      {
        name: "react-router",
        file: "/app/node_modules/react-router/dist/development/index.mjs",
        production: false,
      },
      { name: "react", file: "/app/node_modules/react/cjs/react.production.js", production: true },
    ]);
    expect(warning).toContain(
      `${DEVELOPMENT_BUILD_WARNING} react-router (/app/node_modules/react-router/dist/development/index.mjs)`,
    );
    expect(warning).toContain("node --conditions=production main.js");
    expect(developmentBuildsWarning([])).toBeNull();
  });
});
