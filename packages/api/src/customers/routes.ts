import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import {
  createTagBody,
  customerDetailSchema,
  customerListQuery,
  customerPageSchema,
  customerSchema,
  exportCustomersBody,
  mapTagsBody,
  syncCustomersBody,
  syncCustomersResultSchema,
  syncSourcesSchema,
  tagGroupBody,
  tagGroupSchema,
  tagSchema,
  updateCustomerBody,
  updateTagBody,
} from "./schemas";
import { aiTagCustomer, CUSTOMER_EXPORT_MAX, exportCustomers, getCustomer, listCustomers, mapTags, updateCustomer } from "./service";
import { syncContacts, syncSources } from "./sync";
import { createTag, createTagGroup, deleteTag, deleteTagGroup, listTagGroups, listTags, updateTag, updateTagGroup } from "./tags";

const customerTags = ["Customers"];
const tagTags = ["Customer tags"];
const customerParam = idParam("customerId", "cus_01jd7w3k5q9x2m4n6p8r");
const tagParam = idParam("tagId", "tag_01jd7w3k5q9x2m4n6p8r");
const groupParam = idParam("tagGroupId", "tgg_01jd7w3k5q9x2m4n6p8r");
const deleted = z.object({ deleted: z.literal(true) });

/** Customers (/console/customManage/customerList) and their tags (tagList). */
export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/customers",
      tags: customerTags,
      summary: "Customers of the clients the caller reaches, latest conversation first, with filters and a cursor (customer/list)",
      request: { query: customerListQuery },
      data: customerPageSchema,
    }),
    async (c) => {
      const { tagIds, ...query } = c.req.valid("query");
      const ids = tagIds
        ?.split(",")
        .map((value) => value.trim())
        .filter(Boolean);
      return ok(c, await listCustomers(c.var.deps, c.var.auth, { ...query, tagIds: ids }));
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/customers/export",
      tags: customerTags,
      summary: `Download the customers matching the filters as CSV or XLSX (at most ${CUSTOMER_EXPORT_MAX})`,
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: "POST /api/v1/customers/export" })],
      request: { body: jsonBody(exportCustomersBody) },
      responses: {
        200: {
          description: "The file, as an attachment: CSV (UTF-8 with BOM) or XLSX",
          content: {
            "text/csv": { schema: z.string() },
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": { schema: z.string().openapi({ format: "binary" }) },
          },
        },
        ...standardErrors,
      },
    }),
    async (c) => {
      const file = await exportCustomers(c.var.deps, c.var.auth, c.req.valid("json"), c.var.language);
      return c.body(file.body, 200, { "Content-Type": file.contentType, "Content-Disposition": `attachment; filename="${file.filename}"` });
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/customers/tags",
      tags: customerTags,
      summary: "Give tags to customers and take others away, all or nothing (tag/mapping/batch)",
      request: { body: jsonBody(mapTagsBody) },
      data: z.object({ added: z.number().int(), removed: z.number().int() }).openapi("MapCustomerTagsResult"),
    }),
    async (c) => ok(c, await mapTags(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/customers/sync",
      tags: customerTags,
      summary:
        "Pull the contacts of a WeCom app or WeChat official account connection (or of every one of a platform) into customers, merged per channel identity (customer/sync)",
      request: { body: jsonBody(syncCustomersBody) },
      data: syncCustomersResultSchema,
      extraErrors: { 502: "The platform refused (customers pulled before the refusal are kept)" },
    }),
    async (c) => ok(c, await syncContacts(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/customers/sync-sources",
      tags: customerTags,
      summary: "The WeCom apps and official accounts the caller can pull contacts from, and whether their role may",
      data: syncSourcesSchema,
    }),
    async (c) => ok(c, await syncSources(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/customers/{customerId}",
      tags: customerTags,
      summary: "One customer with their conversations, latest first",
      request: { params: customerParam },
      data: customerDetailSchema,
    }),
    async (c) => ok(c, await getCustomer(c.var.deps, c.var.auth, c.req.valid("param").customerId)),
  );

  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/customers/{customerId}",
      tags: customerTags,
      summary: "Edit a customer's nickname, company, WeChat, gender, remark or type",
      request: { params: customerParam, body: jsonBody(updateCustomerBody) },
      data: customerSchema,
    }),
    async (c) => ok(c, await updateCustomer(c.var.deps, c.var.auth, c.req.valid("param").customerId, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/customers/{customerId}/ai-tags",
      tags: customerTags,
      summary: "Let the model of the customer's latest conversation choose from the space's tags (tag/mapping/ai)",
      request: { params: customerParam },
      data: z.object({ chosenTagIds: z.array(z.string()), customer: customerSchema }).openapi("AiTagResult"),
      extraErrors: { 409: "The customer has no conversation, the space has no tags, or the app's model answers offline", 502: "The model failed" },
    }),
    async (c) => ok(c, await aiTagCustomer(c.var.deps, c.var.auth, c.req.valid("param").customerId, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/tag-groups",
      tags: tagTags,
      summary: "Tag groups of the space (tag/group/all)",
      data: z.array(tagGroupSchema),
    }),
    async (c) => ok(c, await listTagGroups(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/tag-groups",
      tags: tagTags,
      status: 201,
      summary: "Create a tag group (tag/group/add)",
      request: { body: jsonBody(tagGroupBody) },
      data: tagGroupSchema,
      extraErrors: { 409: "The name is taken" },
    }),
    async (c) => ok(c, await createTagGroup(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/tag-groups/{tagGroupId}",
      tags: tagTags,
      summary: "Rename a tag group (tag/group/update)",
      request: { params: groupParam, body: jsonBody(tagGroupBody.partial()) },
      data: tagGroupSchema,
      extraErrors: { 409: "The name is taken" },
    }),
    async (c) => ok(c, await updateTagGroup(c.var.deps, c.var.auth, c.req.valid("param").tagGroupId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/tag-groups/{tagGroupId}",
      tags: tagTags,
      summary: "Delete a tag group no tag uses (tag/group/delete)",
      request: { params: groupParam },
      data: deleted,
      extraErrors: { 409: "Tags still use the group (the message says how many)" },
    }),
    async (c) => ok(c, await deleteTagGroup(c.var.deps, c.var.auth, c.req.valid("param").tagGroupId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/tags",
      tags: tagTags,
      summary: "Tags of the space by group, then name (tag/list)",
      request: { query: z.object({ groupId: z.string().max(64).optional() }) },
      data: z.array(tagSchema),
    }),
    async (c) => ok(c, await listTags(c.var.deps, c.var.auth, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/tags",
      tags: tagTags,
      status: 201,
      summary: "Create a tag in a group (tag/add)",
      request: { body: jsonBody(createTagBody) },
      data: tagSchema,
      extraErrors: { 409: "The group already has a tag of that name" },
    }),
    async (c) => ok(c, await createTag(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/tags/{tagId}",
      tags: tagTags,
      summary: "Change a tag (tag/update)",
      request: { params: tagParam, body: jsonBody(updateTagBody) },
      data: tagSchema,
      extraErrors: { 409: "The group already has a tag of that name" },
    }),
    async (c) => ok(c, await updateTag(c.var.deps, c.var.auth, c.req.valid("param").tagId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/tags/{tagId}",
      tags: tagTags,
      summary: "Delete a tag; customers lose it (tag/delete)",
      request: { params: tagParam },
      data: deleted,
    }),
    async (c) => ok(c, await deleteTag(c.var.deps, c.var.auth, c.req.valid("param").tagId)),
  );
}
