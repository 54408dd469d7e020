import { defineConfig } from "tsup";

export default defineConfig({
  entry: { server: "src/cli.ts", index: "src/index.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  sourcemap: true,
  clean: true,
  // Keep node_modules external: native addons (better-sqlite3, libsql) must load from disk.
  skipNodeModulesBundle: true,
  noExternal: ["@parley/channels"],
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
});
