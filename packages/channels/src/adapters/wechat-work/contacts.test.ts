import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryIO } from "../../runtime";
import { startWecomFake, type WecomFake } from "../../testing/wechat-work";
import { ChannelError } from "../../types";
import { createWecomCorpTag, deleteWecomCorpTags, markWecomTags, renameWecomCorpTag, wecomContacts } from "./contacts";

let fake: WecomFake;
beforeAll(async () => {
  fake = await startWecomFake();
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

describe("WeCom customer contact against the local WeCom", () => {
  it("answers 40014 to a token it did not issue, and 48002 to the app's token when the app may not call customer contact", async () => {
    const bad = await fetch(`${fake.apiBase}/cgi-bin/externalcontact/get_follow_user_list?access_token=forged`);
    expect(await bad.json()).toMatchObject({ errcode: 40014 });
    const { contactSecret: _, ...appOnly } = fake.config;
    expect(await platformCode(createWecomCorpTag(appOnly, memoryIO(fake.apiBase), { groupName: "Level", name: "Gold" }))).toBe("48002");
    fake.customers.appAllowed = true;
    const id = await createWecomCorpTag(appOnly, memoryIO(fake.apiBase), { groupName: "Level", name: "Gold" });
    expect(fake.customers.tag(id)).toEqual({ id, name: "Gold", groupName: "Level" });
    fake.customers.appAllowed = false;
  });

  it("creates, renames, marks and deletes corp tags with the customer contact Secret, refusing what WeCom refuses", async () => {
    const io = memoryIO(fake.apiBase);
    fake.customers.addContact({ externalUserid: "wmPerson1", name: "Li Lei", followUserid: "ZhangSan" });
    const silver = await createWecomCorpTag(fake.config, io, { groupName: "Level", name: "Silver" });
    expect(fake.customers.tag(silver)?.groupName).toBe("Level");
    expect(await platformCode(createWecomCorpTag(fake.config, io, { groupName: "Level", name: "Silver" }))).toBe("40071");
    expect(await platformCode(createWecomCorpTag(fake.config, io, { groupName: "Level", name: "x".repeat(31) }))).toBe("40058");
    await renameWecomCorpTag(fake.config, io, silver, "Platinum");
    expect(fake.customers.tag(silver)?.name).toBe("Platinum");
    expect(await platformCode(renameWecomCorpTag(fake.config, io, "etNoSuchTag", "x"))).toBe("40068");
    await markWecomTags(fake.config, io, { userid: "ZhangSan", externalUserid: "wmPerson1", add: [silver], remove: [] });
    expect(fake.customers.tagNamesOf("wmPerson1")).toEqual(["Platinum"]);
    expect(await platformCode(markWecomTags(fake.config, io, { userid: "LiSi", externalUserid: "wmPerson1", add: [silver], remove: [] }))).toBe("84061");
    await deleteWecomCorpTags(fake.config, io, [silver]);
    expect(fake.customers.tag(silver)).toBeUndefined();
    expect(fake.customers.tagNamesOf("wmPerson1")).toEqual([]);
  });

  it("reads every customer of every follow user, page by page with the cursor", async () => {
    for (let index = 0; index < 130; index += 1)
      fake.customers.addContact({ externalUserid: `wmMany${index}`, name: `Customer ${index}`, followUserid: index % 2 ? "WangWu" : "ZhaoLiu", gender: 2 });
    const pages: number[] = [];
    const seen = new Set<string>();
    for await (const page of wecomContacts(fake.config, memoryIO(fake.apiBase))) {
      pages.push(page.length);
      for (const contact of page) seen.add(contact.externalUserid);
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(seen.size).toBe(fake.customers.contacts.size);
  });
});
