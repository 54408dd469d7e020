import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** An announcement addressed to the caller, with their read state. */
export type Announcement = Schemas["Announcement"];
/** An announcement as the instance administrator sees it. */
export type InstanceAnnouncement = Schemas["InstanceAnnouncement"];
/** Who an announcement is for. */
export type AnnouncementAudience = Schemas["CreateAnnouncementRequest"]["audience"];

/** Announcements through the SDK: the caller's (center and bell) and the administrator's. */
export const announcementEndpoints = {
  list: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "announcements", ...extra }, (init) => client.GET("/api/v1/announcements", { ...init, params: { query: { pageNo, pageSize } } })),
  stats: (extra: Extra = {}) => call({ dedupeKey: "announcement-stats", ...extra }, (init) => client.GET("/api/v1/announcements/stats", init)),
  read: (announcementId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/announcements/{announcementId}", { ...init, params: { path: { announcementId } } })),
  readAll: (extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/announcements/read-all", init)),
  /** The administrator's. */
  all: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "instance-announcements", ...extra }, (init) =>
      client.GET("/api/v1/instance/announcements", { ...init, params: { query: { pageNo, pageSize } } }),
    ),
  create: (body: Schemas["CreateAnnouncementRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/instance/announcements", { ...init, body })),
  update: (announcementId: string, body: Schemas["UpdateAnnouncementRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/instance/announcements/{announcementId}", { ...init, params: { path: { announcementId } }, body })),
  remove: (announcementId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/instance/announcements/{announcementId}", { ...init, params: { path: { announcementId } } })),
};
