import type { components } from "@parley/sdk";
import { fileNameOfDisposition } from "../save-blob";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** The data dashboard's answer. */
export type Dashboard = Schemas["AnalysisDashboard"];
/** One invocation record. */
export type AnalysisRecord = Schemas["AnalysisRecord"];
/** One transfer to a person. */
export type AnalysisTransfer = Schemas["AnalysisTransfer"];
/** What records are filtered by. */
export type AnalysisFilters = { from: string; to: string; appId?: string | undefined; channel?: string | undefined; model?: string | undefined };
/** The tables of /console/analysis that can be exported. */
export type ExportKind = "records" | "not-hit" | "transfers" | "words";

/** Cache keys (below the space id) of the analysis screen. */
export const ANALYSIS = ["analysis"] as const;

const defined = <T extends Record<string, unknown>>(query: T) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== "")) as T;

const exportPaths = {
  records: "/api/v1/analysis/records/export",
  "not-hit": "/api/v1/analysis/not-hit/export",
  transfers: "/api/v1/analysis/transfers/export",
  words: "/api/v1/analysis/words/export",
} as const;

/** The browser's IANA time zone (the dashboard counts days in it); undefined where the browser names none. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The records and dashboard calls of /console/analysis, through the SDK and the request layer. */
export const analysisEndpoints = {
  dashboard: (filters: AnalysisFilters, extra: Extra = {}) =>
    call(extra, (init) =>
      client.GET("/api/v1/analysis/dashboard", {
        ...init,
        params: {
          query: defined({ from: filters.from, to: filters.to, appId: filters.appId, channel: filters.channel, timeZone: browserTimeZone() }),
        },
      }),
    ),
  enums: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/analysis/records/enums", init)),
  records: (filters: AnalysisFilters & { pageNo: number; pageSize: number }, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/analysis/records", { ...init, params: { query: defined(filters) } })),
  notHit: (filters: AnalysisFilters & { pageNo: number; pageSize: number }, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/analysis/not-hit", { ...init, params: { query: defined(filters) } })),
  transfers: (filters: AnalysisFilters & { pageNo: number; pageSize: number }, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/analysis/transfers", { ...init, params: { query: defined({ ...filters, model: undefined }) } })),
  /** The export file with the name the server gives it. */
  exportFile: async (kind: ExportKind, filters: AnalysisFilters, format: "csv" | "xlsx", extra: Extra = {}) => {
    let disposition: string | null = null;
    const result = await call(extra, async (init) => {
      const answer = await client.POST(exportPaths[kind], { ...init, body: { filters: defined(filters), format }, parseAs: "blob" });
      disposition = answer.response?.headers.get("content-disposition") ?? null;
      return answer;
    });
    return result.ok
      ? { ok: true as const, data: { blob: result.data as unknown as Blob, fileName: fileNameOfDisposition(disposition) ?? `${kind}.${format}` } }
      : result;
  },
};
