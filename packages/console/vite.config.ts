import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

/** The API server the dev and preview servers forward to (same origin in production). */
const apiTarget = process.env.PARLEY_API_URL ?? "http://127.0.0.1:3000";

const proxy = {
  "/api": { target: apiTarget, changeOrigin: false },
  "/openapi.json": { target: apiTarget, changeOrigin: false },
  "/docs": { target: apiTarget, changeOrigin: false },
};

export default defineConfig({
  base: "/",
  plugins: [react()],
  server: { host: "127.0.0.1", port: 5173, proxy },
  preview: { host: "127.0.0.1", port: 4173, proxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
});
