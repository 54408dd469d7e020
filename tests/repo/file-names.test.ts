import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isKebabName, nonKebabNames } from "./file-names";

const packagesDir = path.resolve(__dirname, "../../packages");

describe("file and folder names under packages/*/src", () => {
  it("are all kebab-case", () => {
    expect(nonKebabNames(packagesDir)).toEqual([]);
  });

  it("accepts kebab names, test and story suffixes, locale files and READMEs", () => {
    for (const name of ["chat-manage-page.tsx", "index.test.ts", "app-card.stories.tsx", "types.d.ts", "en.json", "zh-CN.json", "README.md", "oauth2.ts"]) {
      expect(isKebabName(name, "file"), name).toBe(true);
    }
    expect(isKebabName("chat-manage", "folder")).toBe(true);
  });

  it("finds a camelCase folder, a PascalCase file and a snake_case file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-names-"));
    for (const file of ["console/src/features/chatManage/page.tsx", "console/src/components/AppCard.tsx", "api/src/db/web_clients.ts", "api/src/ok-name.ts"]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), "");
    }
    expect(nonKebabNames(dir).sort()).toEqual(["api/src/db/web_clients.ts", "console/src/components/AppCard.tsx", "console/src/features/chatManage"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
