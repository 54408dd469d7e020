import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Members of the current team space, its invitation links, ownership, and joining through a link (spec §4). */
export const teamEndpoints = {
  members: (query: { keyword?: string; pageNo?: number; pageSize?: number }, extra: Extra = {}) =>
    call({ dedupeKey: "team-members", ...extra }, (init) => client.GET("/api/v1/team/members", { ...init, params: { query } })),
  setRole: (userId: string, body: Schemas["SetTeamMemberRoleRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/team/members/{userId}", { ...init, params: { path: { userId } }, body })),
  remove: (userId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/team/members/{userId}", { ...init, params: { path: { userId } } })),
  exit: (extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/team/exit", init)),
  transfer: (body: Schemas["TransferOwnershipRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/team/owner", { ...init, body })),
  notifyMembers: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/notify-members", init)),
  invitations: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/invitations", init)),
  createInvitation: (body: Schemas["CreateTeamInvitationRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/team/invitations", { ...init, body })),
  revokeInvitation: (invitationId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/team/invitations/{invitationId}", { ...init, params: { path: { invitationId } } })),
  resolveInvitation: (inviteParam: string, extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.GET("/api/v1/team-invitations/resolve", { ...init, params: { query: { inviteParam } } })),
  acceptInvitation: (inviteParam: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/team-invitations/accept", { ...init, body: { inviteParam } })),
};
