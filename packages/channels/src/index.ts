export { platforms, type AdapterContext, type Capabilities, type ChannelAdapter, type NormalizedMessage, type Platform } from "./types";
