/**
 * Recording from the microphone (the SDK's recorder). Imported only when the visitor presses the
 * microphone, so it lands in a chunk of its own that pages which never use it do not download.
 */
export { startRecording } from "@parley/sdk/recorder";
export type { RecorderFailure, Recording } from "@parley/sdk/recorder";
