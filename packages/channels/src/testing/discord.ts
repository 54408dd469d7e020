import type { PlatformFake } from "./fake";

/** Not built yet. */
export const startFake: (() => Promise<PlatformFake>) | undefined = undefined;
