/**
 * Import rules that hold themselves (`npm run lint`, and the lint stage of `npm test`).
 * There is no list of known violations: every rule holds for the whole repository, and any
 * violation fails.
 */
const ours = "(api|sdk|console|widget|channels)";
/** A path inside one of our packages, or its bare name when it cannot be resolved (no dist yet). */
const pkg = (names) => `^(packages/${names}/|@parley/${names}($|/))`;
const tests = "\\.test\\.tsx?$|\\.stories\\.tsx?$|/testing/|/testing\\.ts$|/fixtures/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "An import cycle ties its files into one unit: no file of it can be read, tested or moved alone. Type-only imports count.",
      from: {},
      to: { circular: true },
    },
    {
      name: "api-routes-not-storage",
      severity: "error",
      comment: "Routes are thin: they call a service verb and never query tables themselves (no db/ module, no drizzle-orm).",
      from: { path: "^packages/api/src/(routes|.*/routes)(\\.ts$|/)", pathNot: tests },
      to: { path: ["^packages/api/src/db/", "^drizzle-orm($|/)", "node_modules/drizzle-orm/"] },
    },
    {
      name: "api-services-not-http",
      severity: "error",
      comment: "Services are transport-free: they return codes and data; only the HTTP edge (http/) translates and shapes answers.",
      from: { path: "^packages/api/src/(service|.*/service)(\\.ts$|/)", pathNot: tests },
      to: { path: "^packages/api/src/http/" },
    },
    {
      name: "no-package-internals",
      severity: "error",
      comment: "Another package is reached only through its public entry (its package name, built to dist/), never its source or a relative path.",
      from: { path: `^packages/${ours}/` },
      to: { path: `^packages/${ours}/`, pathNot: ["^packages/$1/", `^packages/${ours}/dist/`] },
    },
    {
      name: "console-only-sdk",
      severity: "error",
      comment: "The console talks to the server only through the SDK.",
      from: { path: "^packages/console/" },
      to: { path: pkg("(api|widget|channels)") },
    },
    {
      name: "widget-only-sdk",
      severity: "error",
      comment: "The widget depends on nothing of ours but the SDK's contract.",
      from: { path: "^packages/widget/" },
      to: { path: pkg("(api|console|channels)") },
    },
    {
      name: "sdk-nothing-ours",
      severity: "error",
      comment: "The SDK is generated from openapi.yaml and imports nothing of ours.",
      from: { path: "^packages/sdk/" },
      to: { path: pkg("(api|console|widget|channels)") },
    },
    {
      name: "channels-nothing-ours",
      severity: "error",
      comment: "Channel adapters are small and know nothing of the api (they get fetch, a clock and a key-value store).",
      from: { path: "^packages/channels/" },
      to: { path: pkg("(api|console|widget|sdk)") },
    },
    {
      name: "api-only-channels",
      severity: "error",
      comment: "The api depends on the channels package only.",
      from: { path: "^packages/api/" },
      to: { path: pkg("(console|widget|sdk)") },
    },
    {
      name: "examples-public-only",
      severity: "error",
      comment: "Examples use what a user gets: published entries (package names), never our sources.",
      from: { path: "^examples/" },
      to: { path: "^packages/", pathNot: `^packages/${ours}/dist/` },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo or a missing dependency.",
      from: { pathNot: "^packages/sdk/scripts/" },
      to: { couldNotResolve: true, pathNot: "^@parley/" },
    },
  ],
  options: {
    // Sources are cruised (see `lint:deps` in package.json); what they reach in node_modules or a
    // built dist/ is recorded as an edge but not read further.
    doNotFollow: { path: ["node_modules", "^packages/[^/]+/dist/"] },
    tsPreCompilationDeps: true,
    // The TypeScript-aware resolution the packages build with (moduleResolution: Bundler).
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".jsx", ".json", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
    cache: { folder: "node_modules/.cache/dependency-cruiser", strategy: "content" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
