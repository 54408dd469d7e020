import { configDefaults, defineConfig } from "vitest/config";

const apiDomains =
  "packages/api/src/{access,identity,spaces,keys,http,system,db,plugins,apps,models,chat,clients,openai,billing,credits,knowledge,jobs,channels,inbox,realtime,hosting,workflows,instance,payments,teams,databases,images}/**/*.test.ts";

/**
 * API test files that never open the relational store (no createTestContext, openDatabase or
 * testDriver, directly or through a helper): they run the same code whatever
 * PARLEY_TEST_DB_DRIVER says, so the libsql project would only repeat the api project's run.
 * tests/repo/driver-free.test.ts checks that each one still opens no database.
 */
export const driverFreeApiTests = [
  "packages/api/src/plugins/mcp-client.test.ts",
  "packages/api/src/access/operations.test.ts",
  "packages/api/src/spaces/privileges.test.ts",
  "packages/api/src/channels/edge.test.ts",
  "packages/api/src/workflows/engine/sandbox.test.ts",
  "packages/api/src/chat/service/humanization.test.ts",
  "packages/api/src/models/pricing.test.ts",
  "packages/api/src/hosting/state.test.ts",
  "packages/api/src/knowledge/retrieval/chunker.test.ts",
  "packages/api/src/knowledge/retrieval/lance-store.test.ts",
  "packages/api/src/knowledge/retrieval/text.test.ts",
  "packages/api/src/knowledge/retrieval/coalescing-index.test.ts",
  "packages/api/src/knowledge/service/sources/website.test.ts",
  "packages/api/src/knowledge/service/sources/qa.test.ts",
  "packages/api/src/knowledge/service/sources/table.test.ts",
  "packages/api/src/knowledge/service/sources/feishu.test.ts",
  "packages/api/src/databases/sql/check.test.ts",
  "packages/api/src/databases/service/csv.test.ts",
  "packages/api/src/databases/remote/mysql.test.ts",
  "packages/api/src/databases/remote/postgres.test.ts",
  "packages/api/src/plugins/builtins.test.ts",
];

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
          // Every file imports much of the server (hono, zod, drizzle, LanceDB): loading that anew per
          // file cost three times what the tests themselves took. The files share one module graph;
          // each still builds its own app on its own database (state in modules is keyed by database).
          isolate: false,
          env: { PARLEY_TEST_DB_DRIVER: "better-sqlite3" },
        },
      },
      {
        extends: true,
        test: {
          name: "api-libsql",
          include: [apiDomains, "packages/api/src/*.test.ts"],
          exclude: [...configDefaults.exclude, ...driverFreeApiTests],
          isolate: false,
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
