import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { writePrecompressedAssets } from "./server/http/middleware/precompressed-assets";

export default {
  ssr: true,
  // Decision 0472: React Router v7's behaviour, chosen, not defaulted: each flag left
  // unset printed a warning on every build. Each is a change to weigh when moving to v8.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
  // Decision 0430: the client's files compressed once, at the best ratio, so the server sends them
  // as they are. Here, after both builds: React Router writes its route manifest during the server's.
  async buildEnd({ reactRouterConfig }) {
    const assets = path.join(reactRouterConfig.buildDirectory, "client", "assets");
    await writePrecompressedAssets(assets, await readdir(assets));
  },
} satisfies Config;
