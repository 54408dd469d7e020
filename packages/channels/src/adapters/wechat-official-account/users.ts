import { ChannelError, type AdapterIO, type ChannelConfig } from "../../types";
import { getWithToken, postWithToken } from "../wechat-shared/api";
import { issue, tokenKey } from "./index";

/*
 * The official account's user tags (用户标签管理) and its followers (用户管理), with the account's
 * cached access token.
 */

function post(config: ChannelConfig, io: AdapterIO, path: string, body: unknown, what: string) {
  return postWithToken(io, tokenKey(config), issue(config, io), path, body, what);
}

/** Creates a user tag; answers its id (WeChat allows 100 tags of at most 30 bytes, names unique). */
export async function createOfficialAccountTag(config: ChannelConfig, io: AdapterIO, name: string): Promise<number> {
  const answer = await post(config, io, "/cgi-bin/tags/create", { tag: { name } }, "WeChat tags/create");
  const tag = answer.tag as { id?: unknown } | undefined;
  if (typeof tag?.id !== "number") throw new ChannelError("WeChat tags/create failed: no tag id in the answer", { retryable: false });
  return tag.id;
}

/** Renames a user tag. */
export async function renameOfficialAccountTag(config: ChannelConfig, io: AdapterIO, id: number, name: string): Promise<void> {
  await post(config, io, "/cgi-bin/tags/update", { tag: { id, name } }, "WeChat tags/update");
}

/** Deletes a user tag. */
export async function deleteOfficialAccountTag(config: ChannelConfig, io: AdapterIO, id: number): Promise<void> {
  await post(config, io, "/cgi-bin/tags/delete", { tag: { id } }, "WeChat tags/delete");
}

/** Tags (or untags) followers, 50 openids per call as WeChat allows. */
export async function tagOfficialAccountUsers(config: ChannelConfig, io: AdapterIO, id: number, openids: string[], untag = false): Promise<void> {
  const path = untag ? "/cgi-bin/tags/members/batchuntagging" : "/cgi-bin/tags/members/batchtagging";
  for (let start = 0; start < openids.length; start += 50) {
    await post(config, io, path, { openid_list: openids.slice(start, start + 50), tagid: id }, `WeChat ${path.slice(8)}`);
  }
}

/** A follower as WeChat describes them (nickname and avatar are no longer given to accounts, so usually empty). */
export interface OfficialAccountUser {
  openid: string;
  nickname: string;
  avatar: string;
  remark: string;
  /** 0 unknown, 1 male, 2 female (no longer given: 0). */
  sex: number;
  subscribed: boolean;
}

/**
 * Every follower, a page at a time: `user/get` (10,000 openids per page, then `next_openid`) and
 * `user/info/batchget` for 100 at a time.
 */
export async function* officialAccountUsers(config: ChannelConfig, io: AdapterIO): AsyncGenerator<OfficialAccountUser[]> {
  let next = "";
  for (;;) {
    const answer = await getWithToken(io, tokenKey(config), issue(config, io), "/cgi-bin/user/get", next ? { next_openid: next } : {}, "WeChat user/get");
    const data = answer.data as { openid?: unknown } | undefined;
    const openids = Array.isArray(data?.openid) ? data.openid.filter((id): id is string => typeof id === "string") : [];
    for (let start = 0; start < openids.length; start += 100) {
      const info = await post(
        config,
        io,
        "/cgi-bin/user/info/batchget",
        { user_list: openids.slice(start, start + 100).map((openid) => ({ openid, lang: "zh_CN" })) },
        "WeChat user/info/batchget",
      );
      const list = Array.isArray(info.user_info_list) ? (info.user_info_list as Record<string, unknown>[]) : [];
      yield list
        .filter((user) => typeof user.openid === "string")
        .map((user) => ({
          openid: user.openid as string,
          nickname: typeof user.nickname === "string" ? user.nickname : "",
          avatar: typeof user.headimgurl === "string" ? user.headimgurl : "",
          remark: typeof user.remark === "string" ? user.remark : "",
          sex: typeof user.sex === "number" ? user.sex : 0,
          subscribed: user.subscribe === 1,
        }));
    }
    next = typeof answer.next_openid === "string" ? answer.next_openid : "";
    // The last page repeats its last openid as next_openid with count 0.
    if (!next || openids.length === 0) return;
  }
}
