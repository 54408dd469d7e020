/**
 * The data a role reaches (spec §3 "data-range resources"; decision 0019):
 * - `all`: every object of the space;
 * - `own`: the apps, workflows, knowledge bases, plugins and clients the member created;
 * - `chosen`: the apps, knowledge bases and clients listed, plus what the member created.
 * Objects that belong to one of these follow it: an app's conversations, usage records and
 * rate limits, a knowledge base's files and segments, a client's sessions and customers.
 */
export type DataRange = { scope: "all" } | { scope: "own" } | { scope: "chosen"; appIds: string[]; knowledgeBaseIds: string[]; clientIds: string[] };

/** What a member may do in a space: their role, its grants (`apps.view`, …) and its data range. */
export interface Access {
  roleId: string;
  grants: ReadonlySet<string>;
  range: DataRange;
}

/** Who is calling and in which space. */
export interface Auth {
  userId: string;
  spaceId: string;
  /** The coarse tier of the member's role (owner, an administrator, anyone else). */
  role: "owner" | "admin" | "member";
  via: "session" | "api-key";
  sessionId?: string;
  apiKeyId?: string;
  /**
   * The member's role in the space, set for every request by requireAuth. Absent for the
   * system acting on its own (schedules, jobs), which reaches everything.
   */
  access?: Access;
}
