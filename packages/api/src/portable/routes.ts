import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, jsonBody, standardErrors } from "../http/openapi";
import { fail } from "../errors";
import { download } from "../knowledge/import-routes";
import { PORTABLE_LIMITS, placeholderOf } from "./format";
import { exportBody, importFormBody, importJsonBody, importResultSchema } from "./schemas";
import { exportPortable } from "./service/export";
import { importPortable } from "./service/import";

/** The import path, given a larger body limit (a zip bundle) in app.ts. */
export const PORTABLE_IMPORT_PATH = /^\/api\/v1\/portable\/import$/;
/** The import body limit: the file limit plus the multipart framing. */
export const PORTABLE_IMPORT_MAX_BYTES = PORTABLE_LIMITS.fileBytes + 64 * 1024;

const tags = ["Portable files"];

function secretsOf(text: string | undefined): Record<string, string> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string"))
      return value as Record<string, string>;
  } catch {
    // refused below
  }
  throw fail.invalid("portable_field_invalid", "secrets", { path: "secrets", reason: "a JSON object of strings" });
}

/** Export to and import from portable files (apps, workflows, plugins, knowledge bases). */
export function registerPortableRoutes(app: OpenAPIHono<AppEnv>) {
  const exportPath = "/api/v1/portable/export";
  app.openapi(
    createRoute({
      method: "post",
      path: exportPath,
      tags,
      summary: "Export apps, workflows, plugins and knowledge bases (or the whole space) to a portable YAML file, or a zip with knowledge contents",
      description: `Secrets are never exported: they become ${placeholderOf("NAME")} placeholders listed under \`secrets\`. The format is docs/portable-format.schema.json.`,
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: `POST ${exportPath}` })],
      request: { body: jsonBody(exportBody) },
      responses: {
        200: {
          description: "The portable file",
          content: {
            "application/yaml": { schema: z.string().openapi({ type: "string", format: "binary" }) },
            "application/zip": { schema: z.string().openapi({ type: "string", format: "binary" }) },
          },
        },
        ...standardErrors,
        403: { description: "The role lacks the view grant of a kind of object asked for" },
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const nothing = !body.space && [body.appIds, body.workflowIds, body.pluginIds, body.knowledgeBaseIds].every((list) => !list || list.length === 0);
      if (nothing) throw fail.invalid("portable_nothing_to_export", "space");
      const file = await exportPortable(c.var.deps, c.var.auth, body);
      return download(file.body, file.contentType, file.fileName) as never;
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/portable/import",
      tags,
      summary:
        "Import a portable file (YAML, or zip with knowledge contents) into the current space, all or nothing; dryRun answers the plan and the placeholders to fill",
      request: {
        body: {
          required: true,
          content: { "application/json": { schema: importJsonBody }, "multipart/form-data": { schema: importFormBody } },
        },
      },
      data: importResultSchema,
      extraErrors: {
        403: "The role lacks the edit grant of a kind of object in the file",
        413: "The file is too large",
        402: "The plan's quotas allow fewer objects (envelope code 701)",
      },
    }),
    async (c) => {
      const type = (c.req.header("content-type") ?? "").toLowerCase();
      if (type.startsWith("multipart/form-data")) {
        const form = (await c.req.parseBody()) as { file?: unknown; secrets?: unknown; dryRun?: unknown };
        if (!(form.file instanceof File)) throw fail.invalid("field_required", "file", { field: "file" });
        const result = await importPortable(c.var.deps, c.var.auth, {
          file: new Uint8Array(await form.file.arrayBuffer()),
          secrets: secretsOf(typeof form.secrets === "string" ? form.secrets : undefined),
          dryRun: form.dryRun === "true",
        });
        return ok(c, result);
      }
      const body = c.req.valid("json") as z.infer<typeof importJsonBody>;
      // Optional in the schema only because a multipart request is checked against it too.
      if (body.yaml === undefined) throw fail.invalid("field_required", "yaml", { field: "yaml" });
      const result = await importPortable(c.var.deps, c.var.auth, { file: new TextEncoder().encode(body.yaml), secrets: body.secrets, dryRun: body.dryRun });
      return ok(c, result);
    },
  );
}
