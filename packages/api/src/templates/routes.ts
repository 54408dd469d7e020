import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { clientIp } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, jsonBody } from "../http/openapi";
import { adminRoute } from "../instance/routes";
import {
  addTemplateBody,
  autoCreateBody,
  autoCreateDraftSchema,
  avatarBody,
  avatarSchema,
  contactBody,
  contactListQuery,
  contactPageSchema,
  contactResultSchema,
  templateCopySchema,
  templateDetailSchema,
  templateGroupListSchema,
  templateListQuery,
  templateListSchema,
  templateSummarySchema,
} from "./schemas";
import { autoCreateApp, autoCreateAvatar } from "./service/auto-create";
import { listContacts, submitContact } from "./service/contact";
import { addCustomTemplate, copyTemplate, deleteCustomTemplate, getTemplate, listTemplateGroups, listTemplates } from "./service/templates";

const tags = ["Templates"];
const adminOnly = { 403: "Only the instance administrator manages templates and reads contact requests" };
const codeParam = z.object({
  code: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "code", in: "path" }, example: "translator" }),
});

/** Templates, one-sentence creation and the contact form (spec §2, §5, §7 Apps, §9). */
export function registerTemplateRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/templates/groups",
      tags,
      public: true,
      summary: "Template groups with their counts",
      data: templateGroupListSchema,
    }),
    async (c) => ok(c, await listTemplateGroups(c.var.deps, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/templates",
      tags,
      public: true,
      summary: "App and workflow templates (guests too)",
      description: "Shipped templates and the administrator's own, in their groups' order, in the request's language.",
      request: { query: templateListQuery },
      data: templateListSchema,
    }),
    async (c) => ok(c, await listTemplates(c.var.deps, c.var.language, c.req.valid("query"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/templates/{code}",
      tags,
      public: true,
      summary: "A template's detail: what a copy holds",
      request: { params: codeParam },
      data: templateDetailSchema,
    }),
    async (c) => ok(c, await getTemplate(c.var.deps, c.var.language, c.req.valid("param").code)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/templates/{code}/copy",
      tags,
      status: 201,
      summary: "Copy a template into the current space",
      description:
        "Makes an app (with its advanced settings and its own knowledge base, sample Q&A imported) or a workflow (with its schedule) in the caller's space, texts in the request's language. Copying again gives another copy named `X (2)`, `X (3)`…",
      request: { params: codeParam },
      data: templateCopySchema,
    }),
    async (c) => ok(c, await copyTemplate(c.var.deps, c.var.auth, c.var.language, c.req.valid("param").code), 201),
  );

  app.openapi(
    adminRoute({
      method: "post",
      path: "/api/v1/instance/templates",
      tags,
      status: 201,
      summary: "Add a template from an app or a workflow (administrator only)",
      description: "From an app or a workflow of the administrator's current space; webhook secrets and notified members are left out.",
      request: { body: jsonBody(addTemplateBody) },
      data: templateSummarySchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await addCustomTemplate(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    adminRoute({
      method: "delete",
      path: "/api/v1/instance/templates/{code}",
      tags,
      summary: "Delete an administrator's template (administrator only)",
      description: "Shipped templates are refused (409).",
      request: { params: codeParam },
      data: z.object({ code: z.string(), deleted: z.literal(true) }),
      extraErrors: { ...adminOnly, 409: "A shipped template" },
    }),
    async (c) => ok(c, await deleteCustomTemplate(c.var.deps, c.req.valid("param").code)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/auto-create",
      tags,
      summary: "Draft an app from one sentence (autoCreate)",
      description:
        "The instance's default model drafts name, description, settings prompt, opening introduction with [guiding questions], category and model; nothing is stored. Offline (no model configured): 409 `auto_create_offline`, start from a template instead. An unusable answer is retried once, then 502 `auto_create_failed`.",
      request: { body: jsonBody(autoCreateBody) },
      data: autoCreateDraftSchema,
      extraErrors: { 409: "No model is configured", 502: "The model gave no usable draft" },
    }),
    async (c) => ok(c, await autoCreateApp(c.var.deps, c.req.valid("json").description, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/avatar/auto-create",
      tags,
      summary: "Draw an avatar for a name (avatar autoCreate)",
      description: "A deterministic SVG from the name (the same name, the same picture), never the default avatar.",
      request: { body: jsonBody(avatarBody) },
      data: avatarSchema,
    }),
    async (c) => ok(c, autoCreateAvatar(c.req.valid("json").name)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/contact-requests",
      tags,
      public: true,
      status: 201,
      summary: "Send the contact form (guests too)",
      description: "Stored for the administrator and mailed to the instance's sales address; sales reply within 48 hours. Throttled per IP.",
      request: { body: jsonBody(contactBody) },
      data: contactResultSchema,
    }),
    async (c) => ok(c, await submitContact(c.var.deps, c.req.valid("json"), { ip: clientIp(c), language: c.var.language }), 201),
  );

  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/contact-requests",
      tags,
      summary: "Contact requests, newest first (administrator only)",
      request: { query: contactListQuery },
      data: contactPageSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await listContacts(c.var.deps, c.req.valid("query"))),
  );
}
