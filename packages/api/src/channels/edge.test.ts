import { describe, expect, it } from "vitest";
import type { ErrorKind } from "../errors";
import { failure } from "../http/envelope";
import { translate } from "../http/translate";
import type { MessageId } from "../i18n/catalogue";
import { languages } from "../i18n/language";
import { channelRefusal, channelText, type RefusalStatus } from "./edge";

// The refusals the channel pipeline answers today, with the kind its HTTP twin would use.
const refusals: [RefusalStatus, ErrorKind, MessageId][] = [
  [404, "not_found", "channel_client_not_found"],
  [400, "validation", "channel_request_rejected"],
  [401, "unauthenticated", "channel_request_rejected"],
  [403, "forbidden", "channel_client_disabled"],
  [503, "external", "channel_platform_unavailable"],
];

describe("the channel edge", () => {
  it("refuses in the same envelope, status and words as the HTTP edge", async () => {
    for (const language of languages) {
      for (const [status, kind, id] of refusals) {
        const response = channelRefusal(status, id, language);
        expect(response.status).toBe(status);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(await response.json()).toEqual(failure(language, kind, translate(language, id)).body);
      }
    }
    expect(await channelRefusal(404, "channel_client_not_found").json()).toMatchObject({ code: 404, message: "Channel client not found" });
  });

  it("renders texts sent through a platform in the reader's language", () => {
    expect(channelText("zh-CN", "wechat_binding_done")).toBe("已绑定 Parley 通知");
    expect(channelText("en", "channel_client_offline_title", { client: "Shop" })).toBe("Channel client Shop went offline");
  });
});
