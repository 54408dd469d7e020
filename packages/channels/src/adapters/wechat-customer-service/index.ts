import type { ChannelAdapter } from "../../types";

/** Not built yet. */
export const adapter: ChannelAdapter | undefined = undefined;
