/**
 * The kernel: the ports every domain is built on, owned below the domains. Each port has an
 * embedded default (SQLite, a data folder, an in-process queue and hub) and room for the
 * scaled-out implementation behind the same interface (see docs/decisions/0016-kernel-ports.md).
 */
export type { Access, Auth, DataRange } from "./auth";
export type { Clock } from "./clock";
export { systemClock } from "./clock";
export type { Deps } from "./deps";
export { createDiskFileStore } from "./files/disk";
export { type FileStat, type FileStore, FileKeyError, fileKey, lastSegment } from "./files/port";
export * from "./jobs";
export type * from "./ports";
export type { Db } from "./store";
export type { Throttle } from "./throttle";
