import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

/**
 * Two builds into dist/: `vite build` makes the chat chunk (dist/chat.js, an ES module with
 * Preact inside), `vite build --mode loader` the loader (dist/widget.js, an IIFE for a classic
 * script tag). The server serves them at /widget/chat.js and /widget.js. Code the chat loads
 * only when used (the recorder, the upload chunk `attach-*.js`) is emitted as its own file.
 */
export default defineConfig(({ mode }) => {
  const loader = mode === "loader";
  return {
    plugins: loader ? [] : [preact({ devtoolsInProd: false, prefreshEnabled: false })],
    build: {
      target: "es2020",
      emptyOutDir: !loader,
      minify: true,
      sourcemap: false,
      // The lazily imported chunks (recorder, uploads) import what they share with the chat
      // (Preact, the store, strings) from chat.js itself instead of a third shared file.
      rolldownOptions: loader ? {} : { preserveEntrySignatures: "allow-extension" },
      lib: loader
        ? { entry: "src/loader.ts", formats: ["iife"], name: "ParleyLoader", fileName: () => "widget.js" }
        : { entry: "src/chat.tsx", formats: ["es"], fileName: () => "chat.js" },
    },
  };
});
