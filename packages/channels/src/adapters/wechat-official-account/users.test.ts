import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../runtime";
import { type OfficialAccountFake, startOfficialAccountFake } from "../../testing/wechat-official-account";
import { ChannelError } from "../../types";
import { createOfficialAccountTag, deleteOfficialAccountTag, officialAccountUsers, renameOfficialAccountTag, tagOfficialAccountUsers } from "./users";

let fake: OfficialAccountFake;
beforeAll(async () => {
  fake = await startOfficialAccountFake();
});
afterAll(() => fake.close());

async function platformCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChannelError);
  return (error as ChannelError).platformCode;
}

describe("official account user tags and followers against the local WeChat", () => {
  it("answers 40014 to a token it did not issue", async () => {
    const bad = await fetch(`${fake.apiBase}/cgi-bin/tags/create?access_token=forged`, { method: "POST", body: JSON.stringify({ tag: { name: "x" } }) });
    expect(await bad.json()).toMatchObject({ errcode: 40014 });
  });

  it("creates, renames, tags and deletes user tags, refusing what WeChat refuses", async () => {
    const io = memoryIO(fake.apiBase);
    fake.users.follow({ openid: "oFollower1" });
    const id = await createOfficialAccountTag(fake.config, io, "广东");
    expect(await platformCode(createOfficialAccountTag(fake.config, io, "广东"))).toBe("45157");
    // 11 Chinese characters are 33 UTF-8 bytes: over WeChat's 30.
    expect(await platformCode(createOfficialAccountTag(fake.config, io, "一二三四五六七八九十一"))).toBe("45158");
    await renameOfficialAccountTag(fake.config, io, id, "广东人");
    expect(fake.users.tagNamed("广东人")?.id).toBe(id);
    expect(await platformCode(renameOfficialAccountTag(fake.config, io, 99_999, "x"))).toBe("45159");
    await tagOfficialAccountUsers(fake.config, io, id, ["oFollower1"]);
    expect(fake.users.tagNamesOf("oFollower1")).toEqual(["广东人"]);
    expect(await platformCode(tagOfficialAccountUsers(fake.config, io, id, ["oStranger"]))).toBe("40003");
    await tagOfficialAccountUsers(fake.config, io, id, ["oFollower1"], true);
    expect(fake.users.tagNamesOf("oFollower1")).toEqual([]);
    await deleteOfficialAccountTag(fake.config, io, id);
    expect(fake.users.tagNamed("广东人")).toBeUndefined();
  });

  it("reads every follower through next_openid pages and user/info/batchget", async () => {
    fake.users.pageSize = 3;
    for (let index = 0; index < 7; index += 1) fake.users.follow({ openid: `oMany${index}`, remark: `r${index}` });
    const seen: string[] = [];
    for await (const page of officialAccountUsers(fake.config, memoryIO(fake.apiBase))) seen.push(...page.map((user) => user.openid));
    expect(new Set(seen)).toEqual(new Set(fake.users.followers.keys()));
    expect(seen).toHaveLength(fake.users.followers.size);
  });
});
