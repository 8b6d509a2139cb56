import { describe, expect, it } from "vitest";
import { loadConfig } from "../server/config";
import { selectReactProductionBuild } from "./runtime-env.js";

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
