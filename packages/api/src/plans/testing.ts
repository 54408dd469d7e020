import { setSpaceCapabilities } from "../instance/service/instance";
import type { MemberGrade } from "../spaces/service/privileges";
import type { TestContext } from "../testing/harness";

/**
 * Gives a space a grade with no end, as the instance administrator does, for tests whose setup
 * creates more than Free's quotas allow (Team's grade by default: room for 100 apps, 10 clients).
 */
export async function upgradeSpaceForTest(ctx: TestContext, spaceId: string, memberGrade: MemberGrade = "PROFESSION"): Promise<void> {
  await setSpaceCapabilities(ctx.deps, spaceId, { memberGrade });
}
