import { defineConfig } from "tsup";
import type { Options } from "tsup";

const shared: Options = {
  // The recorder is an entry of its own so a client can load it apart (the widget, on the first microphone press).
  entry: ["src/index.ts", "src/recorder.ts"],
  dts: true,
  sourcemap: true,
  target: "es2022",
};

export default defineConfig([
  { ...shared, format: "esm" },
  // esbuild's CommonJS interop would hand us openapi-fetch's whole exports object as its
  // default export, so the CommonJS build carries its own copy instead of requiring it.
  { ...shared, format: "cjs", noExternal: ["openapi-fetch"] },
]);
