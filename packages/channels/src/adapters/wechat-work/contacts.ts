import { ChannelError, type AdapterIO, type ChannelConfig } from "../../types";
import { postWithToken, getWithToken, type WechatAnswer } from "../wechat-shared/api";
import { issue, tokenKey } from "./index";

/*
 * WeCom customer contact (外部联系人): the corp's customer tags, tagging a member's customer and
 * reading the customers of the members. These APIs want the token of the customer contact Secret;
 * without one configured, the app's token (and cache entry) is used.
 */

function contactToken(config: ChannelConfig, io: AdapterIO) {
  const contactSecret = config.contactSecret?.trim();
  if (!contactSecret) return { key: tokenKey(config), issue: issue(config, io) };
  return { key: `wechat-work:${config.corpId ?? ""}:contact`, issue: issue(config, io, contactSecret) };
}

function post(config: ChannelConfig, io: AdapterIO, path: string, body: unknown, what: string): Promise<WechatAnswer> {
  const token = contactToken(config, io);
  return postWithToken(io, token.key, token.issue, path, body, what);
}

/**
 * Adds a corp customer tag `name` to the tag group named `groupName` (WeCom creates the group when
 * no group has that name). Answers the new tag's id.
 */
export async function createWecomCorpTag(config: ChannelConfig, io: AdapterIO, input: { groupName: string; name: string }): Promise<string> {
  const answer = await post(
    config,
    io,
    "/cgi-bin/externalcontact/add_corp_tag",
    { group_name: input.groupName, tag: [{ name: input.name }] },
    "WeCom add_corp_tag",
  );
  const group = answer.tag_group as { tag?: { id?: unknown; name?: unknown }[] } | undefined;
  const tag = group?.tag?.find((item) => item.name === input.name) ?? group?.tag?.[0];
  if (typeof tag?.id !== "string" || !tag.id) throw new ChannelError("WeCom add_corp_tag failed: no tag id in the answer", { retryable: false });
  return tag.id;
}

/** Renames a corp customer tag. */
export async function renameWecomCorpTag(config: ChannelConfig, io: AdapterIO, id: string, name: string): Promise<void> {
  await post(config, io, "/cgi-bin/externalcontact/edit_corp_tag", { id, name }, "WeCom edit_corp_tag");
}

/** Deletes corp customer tags by id. */
export async function deleteWecomCorpTags(config: ChannelConfig, io: AdapterIO, ids: string[]): Promise<void> {
  await post(config, io, "/cgi-bin/externalcontact/del_corp_tag", { tag_id: ids }, "WeCom del_corp_tag");
}

/** Adds and removes corp tags on the customer `externalUserid` of the member `userid`. */
export async function markWecomTags(
  config: ChannelConfig,
  io: AdapterIO,
  input: { userid: string; externalUserid: string; add: string[]; remove: string[] },
): Promise<void> {
  await post(
    config,
    io,
    "/cgi-bin/externalcontact/mark_tag",
    { userid: input.userid, external_userid: input.externalUserid, add_tag: input.add, remove_tag: input.remove },
    "WeCom mark_tag",
  );
}

/** A customer of a member, as WeCom describes them. */
export interface WecomContact {
  externalUserid: string;
  /** The member who added the customer (mark_tag needs them). */
  followUserid: string;
  name: string;
  avatar: string;
  /** 1 a WeChat user, 2 a WeCom user. */
  type: number;
  /** 0 unknown, 1 male, 2 female. */
  gender: number;
  corpName: string;
}

/**
 * Every customer of every member who may use customer contact, a page (up to 100) at a time:
 * `get_follow_user_list`, then `batch/get_by_user` over at most 100 members with its cursor.
 */
export async function* wecomContacts(config: ChannelConfig, io: AdapterIO): AsyncGenerator<WecomContact[]> {
  const token = contactToken(config, io);
  const followers = await getWithToken(io, token.key, token.issue, "/cgi-bin/externalcontact/get_follow_user_list", {}, "WeCom get_follow_user_list");
  const users = Array.isArray(followers.follow_user) ? followers.follow_user.filter((id): id is string => typeof id === "string") : [];
  for (let start = 0; start < users.length; start += 100) {
    let cursor = "";
    do {
      const answer = await post(
        config,
        io,
        "/cgi-bin/externalcontact/batch/get_by_user",
        { userid_list: users.slice(start, start + 100), cursor, limit: 100 },
        "WeCom batch/get_by_user",
      );
      const list = Array.isArray(answer.external_contact_list) ? (answer.external_contact_list as Record<string, Record<string, unknown> | undefined>[]) : [];
      const page: WecomContact[] = [];
      for (const item of list) {
        const contact = item.external_contact ?? {};
        const follow = item.follow_info ?? {};
        if (typeof contact.external_userid !== "string" || typeof follow.userid !== "string") continue;
        page.push({
          externalUserid: contact.external_userid,
          followUserid: follow.userid,
          name: typeof contact.name === "string" ? contact.name : "",
          avatar: typeof contact.avatar === "string" ? contact.avatar : "",
          type: typeof contact.type === "number" ? contact.type : 0,
          gender: typeof contact.gender === "number" ? contact.gender : 0,
          corpName: typeof contact.corp_name === "string" ? contact.corp_name : "",
        });
      }
      yield page;
      cursor = typeof answer.next_cursor === "string" ? answer.next_cursor : "";
    } while (cursor);
  }
}
