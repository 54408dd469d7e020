import { json } from "./fake";
import { jsonBody, type TokenDesk, type WechatError } from "./wechat-shared";

/** A follower of the fake account, as a test adds them. */
export interface FakeFollower {
  openid: string;
  remark?: string;
}

const invalidToken: WechatError = { errcode: 40014, errmsg: "invalid access_token" };
/** WeChat counts tag names in UTF-8 bytes, at most 30. */
const maxNameBytes = 30;
const maxTags = 100;
const maxTagsPerUser = 20;

/**
 * The official account's followers and user tags as the fake keeps them, and the APIs over them:
 * `tags/create|update|delete`, `tags/members/batchtagging|batchuntagging`, `user/get` (with
 * `next_openid`, `pageSize` openids a page) and `user/info/batchget`. Tags 0, 1 and 2 are
 * WeChat's reserved ones. `refuseNext` makes the next call(s) answer a given error.
 */
export class OfficialAccountUserDesk {
  /** Tags by id, with the openids tagged. */
  readonly tags = new Map<number, { name: string; openids: Set<string> }>();
  /** Followers by openid, in the order they followed. */
  readonly followers = new Map<string, FakeFollower>();
  /** Openids per `user/get` page (WeChat gives 10,000; tests page with fewer). */
  pageSize = 10_000;
  private nextTagId = 100;
  private readonly refusals: WechatError[] = [];

  constructor(private readonly tokens: TokenDesk) {}

  /** Adds a follower. */
  follow(follower: FakeFollower): void {
    if (!this.followers.has(follower.openid)) this.followers.set(follower.openid, follower);
  }

  /** Makes the next `count` tag or user calls answer `error`. */
  refuseNext(error: WechatError, count = 1): void {
    for (let index = 0; index < count; index += 1) this.refusals.push(error);
  }

  /** The tag of a name. */
  tagNamed(name: string): { id: number; openids: Set<string> } | undefined {
    for (const [id, tag] of this.tags) if (tag.name === name) return { id, openids: tag.openids };
    return undefined;
  }

  /** Names of the tags on a follower. */
  tagNamesOf(openid: string): string[] {
    return [...this.tags.values()]
      .filter((tag) => tag.openids.has(openid))
      .map((tag) => tag.name)
      .sort();
  }

  /** Answers a tag or user call, or undefined when `url` is not one. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const known = ["/cgi-bin/tags/", "/cgi-bin/user/get", "/cgi-bin/user/info/batchget"].some((prefix) => url.pathname.startsWith(prefix));
    if (!known) return undefined;
    if (!this.tokens.valid(url.searchParams.get("access_token"))) return json(invalidToken);
    const refusal = this.refusals.shift();
    if (refusal) return json(refusal);
    if (request.method === "GET" && url.pathname === "/cgi-bin/user/get") return json(this.userGet(url.searchParams.get("next_openid") ?? ""));
    if (request.method !== "POST") return undefined;
    const body = await jsonBody(request);
    if (!body) return json({ errcode: 47001, errmsg: "data format error" });
    const answer = this.post(url.pathname, body);
    return answer ? json(answer) : undefined;
  }

  private post(path: string, body: Record<string, unknown>): object | undefined {
    const tag = (body.tag ?? {}) as { id?: unknown; name?: unknown };
    switch (path) {
      case "/cgi-bin/tags/create": {
        const invalid = this.nameError(tag.name);
        if (invalid) return invalid;
        if (this.tags.size >= maxTags) return { errcode: 45056, errmsg: "too many tag now, no need to add new" };
        const id = this.nextTagId++;
        this.tags.set(id, { name: tag.name as string, openids: new Set() });
        return { tag: { id, name: tag.name } };
      }
      case "/cgi-bin/tags/update": {
        if (tag.id === 0 || tag.id === 1 || tag.id === 2) return { errcode: 45058, errmsg: "can't modify sys tag" };
        const stored = typeof tag.id === "number" ? this.tags.get(tag.id) : undefined;
        if (!stored) return { errcode: 45159, errmsg: "invalid tag id" };
        const invalid = this.nameError(tag.name, tag.id as number);
        if (invalid) return invalid;
        stored.name = tag.name as string;
        return { errcode: 0, errmsg: "ok" };
      }
      case "/cgi-bin/tags/delete": {
        if (tag.id === 0 || tag.id === 1 || tag.id === 2) return { errcode: 45058, errmsg: "can't modify sys tag" };
        if (typeof tag.id !== "number" || !this.tags.delete(tag.id)) return { errcode: 45159, errmsg: "invalid tag id" };
        return { errcode: 0, errmsg: "ok" };
      }
      case "/cgi-bin/tags/members/batchtagging":
      case "/cgi-bin/tags/members/batchuntagging": {
        const openids = Array.isArray(body.openid_list) ? body.openid_list : [];
        if (!openids.length || openids.length > 50) return { errcode: 40032, errmsg: "invalid openid list size" };
        const stored = typeof body.tagid === "number" ? this.tags.get(body.tagid) : undefined;
        if (!stored) return { errcode: 45159, errmsg: "invalid tag id" };
        if (openids.some((openid) => typeof openid !== "string" || !this.followers.has(openid))) return { errcode: 40003, errmsg: "invalid openid" };
        const untag = path.endsWith("batchuntagging");
        if (!untag && openids.some((openid) => !stored.openids.has(openid as string) && this.tagNamesOf(openid as string).length >= maxTagsPerUser))
          return { errcode: 45059, errmsg: "has too many tags" };
        for (const openid of openids as string[]) {
          if (untag) stored.openids.delete(openid);
          else stored.openids.add(openid);
        }
        return { errcode: 0, errmsg: "ok" };
      }
      case "/cgi-bin/user/info/batchget": {
        const list = Array.isArray(body.user_list) ? (body.user_list as { openid?: unknown }[]) : [];
        if (!list.length || list.length > 100) return { errcode: 40032, errmsg: "invalid user_list size" };
        if (list.some((item) => typeof item?.openid !== "string" || !this.followers.has(item.openid))) return { errcode: 40003, errmsg: "invalid openid" };
        return {
          user_info_list: list.map((item) => {
            const follower = this.followers.get(item.openid as string)!;
            const tagIds = [...this.tags].filter(([, stored]) => stored.openids.has(follower.openid)).map(([id]) => id);
            // Since 2021-12-27 WeChat gives accounts neither nickname nor avatar.
            return { subscribe: 1, openid: follower.openid, language: "zh_CN", remark: follower.remark ?? "", groupid: 0, tagid_list: tagIds };
          }),
        };
      }
      default:
        return undefined;
    }
  }

  private nameError(name: unknown, except?: number): WechatError | undefined {
    if (typeof name !== "string" || !name.trim()) return { errcode: 45157, errmsg: "invalid tag name" };
    if (Buffer.byteLength(name) > maxNameBytes) return { errcode: 45158, errmsg: "tag name too long" };
    if ([...this.tags].some(([id, tag]) => id !== except && tag.name === name)) return { errcode: 45157, errmsg: "invalid tag name" };
    return undefined;
  }

  private userGet(nextOpenid: string) {
    const openids = [...this.followers.keys()];
    const start = nextOpenid ? openids.indexOf(nextOpenid) + 1 : 0;
    if (nextOpenid && start === 0) return { errcode: 40003, errmsg: "invalid next_openid" };
    const page = openids.slice(start, start + this.pageSize);
    return {
      total: openids.length,
      count: page.length,
      ...(page.length ? { data: { openid: page } } : {}),
      next_openid: page.at(-1) ?? "",
    };
  }
}
