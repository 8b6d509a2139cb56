// `npm start`: build when there is no build, then serve (docs/contract.md). package.json starts this with
// Node's production export condition, which main.js, imported below, then runs under (decision 0510).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("build/server/index.js") || !existsSync("build/client")) {
  console.log("No build found: building the app once (about a minute)…");
  const result = spawnSync(process.execPath, ["node_modules/@react-router/dev/bin.js", "build"], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import("../main.js");
