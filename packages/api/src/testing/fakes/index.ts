/**
 * Local stand-ins for the outside services Parley talks to, each a real server on 127.0.0.1
 * speaking the vendor's protocol, for unit, integration and browser tests.
 */
export { startAliyunSmsFake, type AliyunBusinessError, type AliyunSentSms, type AliyunSmsFake, type AliyunSmsFakeOptions } from "./aliyun-sms.js";
export { startFeishuFake, type FeishuFake, type FeishuFakeApp, type FeishuFakeDocument, type FeishuFakeOptions } from "./feishu.js";
export { startEmbeddingsFake, type EmbeddingsFake, type EmbeddingsRequest } from "./embeddings.js";
export { startRerankFake, type RerankFake, type RerankFakeMode, type RerankFakeOptions, type RerankFakeRequest } from "./rerank.js";
export {
  startTranscriptionFake,
  type TranscriptionFake,
  type TranscriptionFakeMode,
  type TranscriptionFakeOptions,
  type TranscriptionFakeRequest,
} from "./transcription.js";
export { silentMp3, startSpeechFake, type SpeechFake, type SpeechFakeMode, type SpeechFakeOptions, type SpeechFakeRequest } from "./speech.js";
export { createBrowser, type Browser, type BrowserOpenOptions, type BrowserVisit } from "./browser.js";
export {
  startOidcProvider,
  type OidcFakeAccount,
  type OidcFakeClient,
  type OidcProviderFake,
  type OidcProviderOptions,
} from "./oidc-provider.js";
export { parseMessage, startSmtpServer, type ReceivedMail, type SmtpServerFake, type SmtpServerOptions } from "./smtp.js";
export { startWechatFake, type WechatFake, type WechatFakeOptions, type WechatFakeUser } from "./wechat.js";
export {
  postNotification,
  rsaPair,
  startAlipayFake,
  startStripeFake,
  startWechatPayFake,
  stripeSignatureHeader,
  type AlipayFake,
  type FakeNotification,
  type StripeFake,
  type WechatPayFake,
} from "./payments.js";
export {
  solidPng,
  startMidjourneyFake,
  startOpenAiImagesFake,
  type ImageFakeRequest,
  type MidjourneyFake,
  type OpenAiImagesFake,
} from "./images.js";
