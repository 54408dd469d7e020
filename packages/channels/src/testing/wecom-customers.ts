import { randomBytes } from "node:crypto";
import { json } from "./fake";
import { jsonBody, type TokenDesk, type WechatError } from "./wechat-shared";

/** A customer of the fake corp, as a test adds them. */
export interface FakeWecomContact {
  externalUserid: string;
  name: string;
  /** The member who added the customer (a follow user). */
  followUserid: string;
  avatar?: string;
  corpName?: string;
  /** 1 a WeChat user, 2 a WeCom user. */
  type?: number;
  gender?: number;
}

interface CorpTagGroup {
  id: string;
  name: string;
  createTime: number;
  tags: Map<string, { name: string; createTime: number }>;
}

const invalidToken: WechatError = { errcode: 40014, errmsg: "invalid access_token" };
const invalidParameter = (what: string): WechatError => ({ errcode: 40058, errmsg: `invalid parameter: ${what}` });
/** WeCom counts tag and group names in characters, at most 30. */
const maxNameChars = 30;

function nameError(name: unknown, what: string): WechatError | undefined {
  if (typeof name !== "string" || !name.trim()) return invalidParameter(`${what} missing`);
  if ([...name].length > maxNameChars) return invalidParameter(`${what} exceeds ${maxNameChars} characters`);
  return undefined;
}

const wecomId = (prefix: string) => `${prefix}${randomBytes(12).toString("base64url")}`;

/**
 * WeCom customer contact as the fake corp keeps it: corp customer tags in groups, customers of
 * members with the tags marked on them, and the APIs over them (`add_corp_tag`, `edit_corp_tag`,
 * `del_corp_tag`, `mark_tag`, `get_follow_user_list`, `batch/get_by_user`). The APIs want a token
 * issued for the customer contact Secret; the app's token is answered 48002 (no permission) unless
 * the app was allowed. `refuseNext` makes the next call(s) answer a given error.
 */
export class WecomCustomerDesk {
  readonly groups = new Map<string, CorpTagGroup>();
  /** Per customer: who they are and the corp tag ids marked on them. */
  readonly contacts = new Map<string, FakeWecomContact & { tags: Set<string> }>();
  /** Members who may use customer contact. */
  readonly followUsers = new Set<string>();
  /** The app's own token may call these APIs (it is configured as an app allowed to call customer contact). */
  appAllowed = false;
  private readonly refusals: WechatError[] = [];

  constructor(
    private readonly contactTokens: TokenDesk,
    private readonly appTokens: TokenDesk,
  ) {}

  /** Adds a customer of `followUserid` (who becomes a follow user). */
  addContact(contact: FakeWecomContact): void {
    this.followUsers.add(contact.followUserid);
    this.contacts.set(contact.externalUserid, { ...contact, tags: new Set() });
  }

  /** Makes the next `count` customer contact calls answer `error`. */
  refuseNext(error: WechatError, count = 1): void {
    for (let index = 0; index < count; index += 1) this.refusals.push(error);
  }

  /** A tag by id, with its group's name. */
  tag(id: string): { id: string; name: string; groupName: string } | undefined {
    for (const group of this.groups.values()) {
      const tag = group.tags.get(id);
      if (tag) return { id, name: tag.name, groupName: group.name };
    }
    return undefined;
  }

  /** Names of the tags marked on a customer. */
  tagNamesOf(externalUserid: string): string[] {
    return [...(this.contacts.get(externalUserid)?.tags ?? [])].map((id) => this.tag(id)?.name ?? id).sort();
  }

  /** Answers a customer contact call, or undefined when `url` is not one. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname.replace(/^\/cgi-bin\/externalcontact\//, "");
    if (path === url.pathname) return undefined;
    const token = url.searchParams.get("access_token");
    if (!this.contactTokens.valid(token)) {
      if (!this.appTokens.valid(token)) return json(invalidToken);
      if (!this.appAllowed) return json({ errcode: 48002, errmsg: "api forbidden" });
    }
    const refusal = this.refusals.shift();
    if (refusal) return json(refusal);
    if (request.method === "GET" && path === "get_follow_user_list") return json({ errcode: 0, errmsg: "ok", follow_user: [...this.followUsers] });
    if (request.method !== "POST") return undefined;
    const body = await jsonBody(request);
    if (!body) return json({ errcode: 47001, errmsg: "data format error" });
    const answer = this.post(path, body);
    return answer ? json(answer) : undefined;
  }

  private post(path: string, body: Record<string, unknown>): object | undefined {
    switch (path) {
      case "add_corp_tag":
        return this.addCorpTag(body);
      case "edit_corp_tag":
        return this.editCorpTag(body);
      case "del_corp_tag":
        return this.delCorpTag(body);
      case "mark_tag":
        return this.markTag(body);
      case "batch/get_by_user":
        return this.batchGetByUser(body);
      default:
        return undefined;
    }
  }

  private addCorpTag(body: Record<string, unknown>) {
    const now = Math.floor(Date.now() / 1000);
    let group: CorpTagGroup | undefined;
    if (body.group_id !== undefined) {
      group = typeof body.group_id === "string" ? this.groups.get(body.group_id) : undefined;
      if (!group) return { errcode: 40068, errmsg: "invalid tagid" };
    } else {
      const invalid = nameError(body.group_name, "group_name");
      if (invalid) return invalid;
      group = [...this.groups.values()].find((item) => item.name === body.group_name);
    }
    const list = Array.isArray(body.tag) ? (body.tag as { name?: unknown }[]) : [];
    if (!list.length) return invalidParameter("tag missing");
    const names: string[] = [];
    for (const item of list) {
      const invalid = nameError(item?.name, "tag.name");
      if (invalid) return invalid;
      const name = item.name as string;
      if (names.includes(name) || [...(group?.tags.values() ?? [])].some((tag) => tag.name === name))
        return { errcode: 40071, errmsg: "UserTag Name Already Exist" };
      names.push(name);
    }
    if (!group) {
      group = { id: wecomId("et"), name: body.group_name as string, createTime: now, tags: new Map() };
      this.groups.set(group.id, group);
    }
    const created = names.map((name) => {
      const id = wecomId("et");
      group.tags.set(id, { name, createTime: now });
      return { id, name, create_time: now, order: 0 };
    });
    return {
      errcode: 0,
      errmsg: "ok",
      tag_group: { group_id: group.id, group_name: group.name, create_time: group.createTime, order: 0, tag: created },
    };
  }

  private editCorpTag(body: Record<string, unknown>) {
    if (typeof body.id !== "string" || !body.id) return invalidParameter("id missing");
    const group = [...this.groups.values()].find((item) => item.id === body.id || item.tags.has(body.id as string));
    if (!group) return { errcode: 40068, errmsg: "invalid tagid" };
    if (body.name === undefined) return { errcode: 0, errmsg: "ok" };
    const invalid = nameError(body.name, "name");
    if (invalid) return invalid;
    const name = body.name as string;
    if (group.id === body.id) {
      if ([...this.groups.values()].some((item) => item !== group && item.name === name)) return { errcode: 40071, errmsg: "UserTag Name Already Exist" };
      group.name = name;
      return { errcode: 0, errmsg: "ok" };
    }
    if ([...group.tags].some(([id, tag]) => id !== body.id && tag.name === name)) return { errcode: 40071, errmsg: "UserTag Name Already Exist" };
    group.tags.get(body.id)!.name = name;
    return { errcode: 0, errmsg: "ok" };
  }

  private delCorpTag(body: Record<string, unknown>) {
    const tagIds = Array.isArray(body.tag_id) ? body.tag_id : [];
    const groupIds = Array.isArray(body.group_id) ? body.group_id : [];
    if (!tagIds.length && !groupIds.length) return invalidParameter("tag_id and group_id missing");
    if (tagIds.some((id) => typeof id !== "string" || !this.tag(id)) || groupIds.some((id) => typeof id !== "string" || !this.groups.has(id)))
      return { errcode: 40068, errmsg: "invalid tagid" };
    for (const id of groupIds as string[]) {
      for (const tagId of this.groups.get(id)?.tags.keys() ?? []) tagIds.push(tagId);
      this.groups.delete(id);
    }
    for (const id of tagIds as string[]) {
      for (const group of this.groups.values()) {
        group.tags.delete(id);
        // A group without tags is deleted with its last tag.
        if (!group.tags.size) this.groups.delete(group.id);
      }
      for (const contact of this.contacts.values()) contact.tags.delete(id);
    }
    return { errcode: 0, errmsg: "ok" };
  }

  private markTag(body: Record<string, unknown>) {
    if (typeof body.userid !== "string" || typeof body.external_userid !== "string") return invalidParameter("userid or external_userid missing");
    const add = Array.isArray(body.add_tag) ? body.add_tag : [];
    const remove = Array.isArray(body.remove_tag) ? body.remove_tag : [];
    if (!add.length && !remove.length) return invalidParameter("add_tag and remove_tag empty");
    const contact = this.contacts.get(body.external_userid);
    if (!contact || contact.followUserid !== body.userid) return { errcode: 84061, errmsg: "not external contact" };
    if ([...add, ...remove].some((id) => typeof id !== "string" || !this.tag(id))) return { errcode: 40068, errmsg: "invalid tagid" };
    for (const id of add as string[]) contact.tags.add(id);
    for (const id of remove as string[]) contact.tags.delete(id);
    return { errcode: 0, errmsg: "ok" };
  }

  private batchGetByUser(body: Record<string, unknown>) {
    const users = Array.isArray(body.userid_list) ? body.userid_list.filter((id): id is string => typeof id === "string") : [];
    if (!users.length || users.length > 100) return invalidParameter("userid_list must hold 1 to 100 userids");
    const limit = Math.min(typeof body.limit === "number" && body.limit > 0 ? body.limit : 50, 100);
    const offset = typeof body.cursor === "string" && body.cursor ? Number(Buffer.from(body.cursor, "base64url").toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) return invalidParameter("cursor");
    const all = [...this.contacts.values()].filter((contact) => users.includes(contact.followUserid));
    const page = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString("base64url") : "";
    return {
      errcode: 0,
      errmsg: "ok",
      external_contact_list: page.map((contact) => ({
        external_contact: {
          external_userid: contact.externalUserid,
          name: contact.name,
          avatar: contact.avatar ?? "",
          type: contact.type ?? 1,
          gender: contact.gender ?? 0,
          ...(contact.corpName ? { corp_name: contact.corpName } : {}),
        },
        follow_info: { userid: contact.followUserid, remark: "", createtime: 0, tag_id: [...contact.tags], oper_userid: contact.followUserid, add_way: 1 },
      })),
      next_cursor: next,
    };
  }
}
