import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "../db/client";
import * as schema from "../db/schema/index";
import { testDriver } from "../testing/harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-migration-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before 0012: an instance created by an older Parley. */
function foldersBefore0012(): string {
  const folder = path.join(dir, "drizzle");
  fs.cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < 12);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe("migration 0012 on an instance that existed before it", () => {
  it("gives the administrator's personal and team spaces the highest grade and leaves everyone else's alone", async () => {
    const file = path.join(dir, "parley.db");
    const sqlite = new Database(file);
    const old = drizzle(sqlite, { schema });
    migrate(old, { migrationsFolder: foldersBefore0012() });
    const now = new Date().toISOString();
    const user = (id: string, admin: boolean) => ({
      id,
      name: id,
      personalSpaceId: `spc_${id}`,
      currentSpaceId: `spc_${id}`,
      isInstanceOwner: admin,
      updatedAt: now,
    });
    const space = (id: string, owner: string, kind: "personal" | "team", grade: "FREE" | "NORMAL" = "FREE") => ({
      id,
      code: id.slice(-8),
      name: id,
      kind,
      ownerUserId: owner,
      memberGrade: grade,
      updatedAt: now,
    });
    old
      .insert(schema.users)
      .values([user("owner", true), user("carol", false)])
      .run();
    old
      .insert(schema.spaces)
      .values([
        space("spc_owner", "owner", "personal"),
        space("spc_owner_team", "owner", "team"),
        space("spc_carol", "carol", "personal", "NORMAL"),
        space("spc_carol_team", "carol", "team"),
      ])
      .run();
    sqlite.close();

    const upgraded = await openDatabase({ driver: testDriver(), url: `file:${file}` });
    try {
      const rows = await upgraded.db.select({ id: schema.spaces.id, grade: schema.spaces.memberGrade }).from(schema.spaces).orderBy(schema.spaces.id).all();
      expect(rows).toEqual([
        { id: "spc_carol", grade: "NORMAL" },
        { id: "spc_carol_team", grade: "FREE" },
        { id: "spc_owner", grade: "CUSTOM" },
        { id: "spc_owner_team", grade: "CUSTOM" },
      ]);
    } finally {
      await upgraded.close();
    }
  });
});
