import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { fail } from "../errors";
import { clientIp } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { userSchema } from "../identity/schemas";
import { userView } from "../spaces/service/spaces";
import * as s from "./schemas";
import { acceptInvitation, createInvitation, listInvitations, resolveInvitation, revokeInvitation } from "./service/invitations";
import { exitSpace, listMembers, listNotifyMembers, removeMember, setMemberRole, transferOwnership } from "./service/members";

const tags = ["Team"];
const userParam = idParam("userId", "usr_01jd7w3k5q9x2m4n6p8r");
/** Window of the per-address throttle on public link lookups. */
const RESOLVE_WINDOW_SECONDS = 60;
/** Lookups of invitation links one address may make per window. */
const RESOLVE_PER_WINDOW = 30;

/** Members of the current team space, its invitation links, ownership, and joining through a link. */
export function registerTeamRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/members",
      tags,
      summary: "Members of the current space (getCompanyMember)",
      description: "Owner first, then by joining time. `keyword` matches part of a name, e-mail address or phone number.",
      request: { query: s.teamMemberQuery },
      data: s.teamMemberPageSchema,
    }),
    async (c) => ok(c, await listMembers(c.var.deps, c.var.auth, c.req.valid("query"), c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/team/members/{userId}",
      tags,
      summary: "Change a member's role (setCompanyMemberRole)",
      description:
        "Nobody changes their own role or the owner's; `owner` comes only by a transfer; the role must exist in the space and grant nothing the caller lacks; only the owner makes or unmakes an administrator.",
      request: { params: userParam, body: jsonBody(s.setMemberRoleBody) },
      data: s.teamMemberSchema,
      extraErrors: { 403: "Not allowed for this member or role" },
    }),
    async (c) => ok(c, await setMemberRole(c.var.deps, c.var.auth, c.req.valid("param").userId, c.req.valid("json").roleId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/team/members/{userId}",
      tags,
      summary: "Remove a member (deleteCompanyMember)",
      description:
        "Takes effect at once: the membership and its credit allocation, the member's API keys for the space, and the space as their current one go; their open consoles leave the space.",
      request: { params: userParam },
      data: z.object({ userId: z.string() }),
      extraErrors: { 403: "The owner, oneself, or an administrator (unless the caller owns the space)" },
    }),
    async (c) => ok(c, await removeMember(c.var.deps, c.var.auth, c.req.valid("param").userId)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team/exit",
      tags,
      summary: "Leave the current space (exitCompany)",
      description: "Answers the user in their personal space, which becomes current. The owner cannot leave (409).",
      data: userSchema,
      extraErrors: { 409: "The owner cannot leave their own space" },
    }),
    async (c) => {
      const { spaceId } = await exitSpace(c.var.deps, c.var.auth);
      return ok(c, await userView(c.var.deps, c.var.auth.userId, spaceId));
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team/owner",
      tags,
      summary: "Transfer ownership of the current space to a member",
      description: "The owner only. The member becomes owner; the former owner becomes an administrator.",
      request: { body: jsonBody(s.transferOwnerBody) },
      data: s.teamMemberSchema,
      extraErrors: { 403: "Only the owner transfers ownership", 409: "A personal space cannot change owner" },
    }),
    async (c) => ok(c, await transferOwnership(c.var.deps, c.var.auth, c.req.valid("json").userId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/notify-members",
      tags,
      summary: "Members handover notices can reach (getCompanyNotifyMember)",
      data: z.array(s.notifyMemberSchema),
    }),
    async (c) => ok(c, await listNotifyMembers(c.var.deps, c.var.auth, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/invitations",
      tags,
      summary: "Invitation links of the current team space, newest first",
      data: z.array(s.teamInvitationSchema),
    }),
    async (c) => ok(c, await listInvitations(c.var.deps, c.var.auth, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team/invitations",
      tags,
      status: 201,
      summary: "Make an invitation link (inviteMember)",
      description: "Team spaces only (409 in a personal space). The role follows the rules of giving a role to a member.",
      request: { body: jsonBody(s.createInvitationBody) },
      data: s.teamInvitationSchema,
      extraErrors: { 403: "The caller cannot give this role", 409: "Not a team space" },
    }),
    async (c) => ok(c, await createInvitation(c.var.deps, c.var.auth, c.req.valid("json"), c.var.language), 201),
  );

  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/team/invitations/{invitationId}",
      tags,
      summary: "Revoke an invitation link",
      request: { params: idParam("invitationId", "tin_01jd7w3k5q9x2m4n6p8r") },
      data: s.teamInvitationSchema,
    }),
    async (c) => ok(c, await revokeInvitation(c.var.deps, c.var.auth, c.req.valid("param").invitationId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team-invitations/resolve",
      tags,
      public: true,
      summary: "What an invitation link opens (getCompanyByInviteParam)",
      description: "404 names why a link cannot be used: unknown, revoked, expired or used up. Throttled per address.",
      request: { query: s.resolveInvitationQuery },
      data: s.resolvedInvitationSchema,
    }),
    async (c) => {
      const { deps } = c.var;
      const wait = await deps.throttle.hit(`team-invite-resolve:${clientIp(c)}`, RESOLVE_PER_WINDOW, RESOLVE_WINDOW_SECONDS);
      if (wait > 0) throw fail.rateLimited(wait);
      return ok(c, await resolveInvitation(deps, c.req.valid("query").inviteParam, c.var.language));
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team-invitations/accept",
      tags,
      summary: "Join a team space through an invitation link (agreeEnterCompany)",
      description:
        "Joins with the link's role and makes the space current; answers the user in it. 409 if already a member; 404 names why a link cannot be used; 701 when the plan's member quota is full.",
      request: { body: jsonBody(s.acceptInvitationBody) },
      data: userSchema,
      extraErrors: { 409: "Already a member of the space", 402: "The space's plan has no room for another member (envelope code 701)" },
    }),
    async (c) => {
      const { spaceId } = await acceptInvitation(c.var.deps, c.var.auth, c.req.valid("json").inviteParam);
      return ok(c, await userView(c.var.deps, c.var.auth.userId, spaceId));
    },
  );
}
