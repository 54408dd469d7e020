import type { components } from "@parley/sdk";
import { fileNameOfDisposition } from "../save-blob";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal">;

/** What to export: chosen objects, or the whole space. */
export type PortableExportRequest = Schemas["PortableExportRequest"];
/** What an import did, or (dry run) would do. */
export type PortableImportResult = Schemas["PortableImportResult"];

/** Export to and import from portable files, through the SDK and the request layer. */
export const portableEndpoints = {
  /** The exported file (YAML, or a zip with knowledge contents) and the name the server gives it. */
  exportFile: async (request: PortableExportRequest, extra: Extra = {}) => {
    let disposition: string | null = null;
    const result = await call(extra, async (init) => {
      const answer = await client.POST("/api/v1/portable/export", { ...init, body: request, parseAs: "blob" });
      disposition = answer.response?.headers.get("content-disposition") ?? null;
      return answer;
    });
    const fallback = request.includeContents ? "parley-export.zip" : "parley-export.yaml";
    return result.ok ? { ok: true as const, data: { blob: result.data as unknown as Blob, fileName: fileNameOfDisposition(disposition) ?? fallback } } : result;
  },
  /** Imports (or, with dryRun, plans) a portable file; `secrets` fill its placeholders. */
  importFile: (file: Blob, fileName: string, options: { secrets?: Record<string, string>; dryRun?: boolean }, extra: Extra = {}) =>
    call(extra, (init) => {
      const form = new FormData();
      form.append("file", file, fileName);
      if (options.secrets) form.append("secrets", JSON.stringify(options.secrets));
      if (options.dryRun) form.append("dryRun", "true");
      return client.POST("/api/v1/portable/import", {
        ...init,
        body: form as unknown as Schemas["PortableImportRequest"],
        bodySerializer: (body: unknown) => body as FormData,
      });
    }),
};
