/**
 * The outside world's ports that already had a home: providers (mail, SMS, sign-in with OIDC
 * or WeChat, language models) and the real-time hub. They stay where they are; the kernel
 * names them so that services import every port from one place.
 */
export type { ExternalIdentity, MailSender, OidcClient, OutgoingMail, OutgoingSms, SmsSender, WechatOAuthClient } from "../platform/ports";
export type { ModelCatalog } from "../models/catalog";
export type { RealtimeHub, RealtimeListener, RealtimeTarget } from "../realtime/hub";
