import { defineConfig } from "vitest/config";

const apiDomains =
  "packages/api/src/{access,identity,spaces,keys,http,system,db,plugins,apps,models,chat,clients,openai,billing,credits,knowledge,jobs,channels,inbox,realtime,hosting,workflows,instance,payments,teams,databases}/**/*.test.ts";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default; a loaded CI machine needs longer for the browser and the indexer.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["packages/api/src/**/*.test.ts"],
          env: { PARLEY_TEST_DB_DRIVER: "better-sqlite3" },
        },
      },
      {
        extends: true,
        test: {
          name: "api-libsql",
          include: [apiDomains, "packages/api/src/*.test.ts"],
          env: { PARLEY_TEST_DB_DRIVER: "libsql" },
        },
      },
      { extends: true, test: { name: "sdk", include: ["packages/sdk/src/**/*.test.ts"] } },
      { extends: true, test: { name: "channels", include: ["packages/channels/src/**/*.test.ts"], passWithNoTests: true } },
      { extends: true, test: { name: "widget", include: ["packages/widget/src/**/*.test.{ts,tsx}"] } },
      { extends: true, test: { name: "console", include: ["packages/console/src/**/*.test.{ts,tsx}"] } },
      { extends: true, test: { name: "repo", include: ["tests/repo/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "system",
          include: ["tests/system/**/*.test.ts"],
          // Browser and server processes: one file at a time keeps 2 cores from thrashing.
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
