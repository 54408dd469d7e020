export { createApp, openApiInfo } from "./app";
export { loadConfig, type Config } from "./config";
export { openDatabase, type Db } from "./db/client";
export type { Deps } from "./http/context";
export { startServer, type RunningServer } from "./server";
