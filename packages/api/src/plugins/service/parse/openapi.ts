import { parse as parseYaml } from "yaml";
import { requestMethods } from "../../schemas";
import { isPlainObject, type ParameterLocation, type PluginParameter } from "../parameters";
import { nameFromUrl, nameWarnings, type ParseResult, parseFailure } from "./draft";

type Node = Record<string, unknown>;
type Method = (typeof requestMethods)[number];

const MAX_DEPTH = 12;

interface Operation {
  method: Method;
  path: string;
  pathItem: Node;
  node: Node;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** Reads a JSON or YAML text into a document object. */
function readDocument(content: string): Node {
  let parsed: unknown;
  try {
    parsed = content.trimStart().startsWith("{") ? JSON.parse(content) : parseYaml(content, { maxAliasCount: 100 });
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0] ?? "";
    throw parseFailure("plugin_parse_openapi_syntax", { reason });
  }
  if (!isPlainObject(parsed)) throw parseFailure("plugin_parse_openapi_syntax", { reason: "the document is not an object" });
  const version = text(parsed.openapi) || text(parsed.swagger) || (typeof parsed.swagger === "number" ? String(parsed.swagger) : "");
  if (!/^3\./.test(text(parsed.openapi))) throw parseFailure("plugin_parse_openapi_version", { version: version || "none" });
  return parsed;
}

/** Follows local `$ref`s (`#/components/…`), refusing cycles and references elsewhere. */
function resolver(document: Node) {
  return function resolve(node: unknown, seen: string[] = []): Node {
    if (!isPlainObject(node)) return {};
    const ref = node.$ref;
    if (typeof ref !== "string") return node;
    if (!ref.startsWith("#/") || seen.includes(ref) || seen.length > MAX_DEPTH) throw parseFailure("plugin_parse_openapi_ref", { ref });
    let target: unknown = document;
    for (const raw of ref.slice(2).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      target = isPlainObject(target) ? target[key] : undefined;
    }
    if (!isPlainObject(target)) throw parseFailure("plugin_parse_openapi_ref", { ref });
    return resolve(target, [...seen, ref]);
  };
}

function listOperations(document: Node): Operation[] {
  const paths = isPlainObject(document.paths) ? document.paths : {};
  const operations: Operation[] = [];
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isPlainObject(pathItem)) continue;
    for (const method of requestMethods) {
      const node = pathItem[method.toLowerCase()];
      if (isPlainObject(node)) operations.push({ method, path, pathItem, node });
    }
  }
  return operations;
}

function describeOperation(operation: Operation): string {
  const id = text(operation.node.operationId);
  return id ? `${id} (${operation.method} ${operation.path})` : `${operation.method} ${operation.path}`;
}

function pickOperation(operations: Operation[], wanted: string | undefined): Operation {
  if (operations.length === 0) throw parseFailure("plugin_parse_openapi_no_operations");
  const list = operations.map(describeOperation).join(", ");
  if (!wanted?.trim()) {
    if (operations.length === 1) return operations[0]!;
    throw parseFailure("plugin_parse_operation_choose", { operations: list }, "operation");
  }
  const choice = wanted.trim();
  const byId = operations.find((operation) => text(operation.node.operationId) === choice);
  if (byId) return byId;
  const match = /^([A-Za-z]+)\s+(\S+)$/.exec(choice);
  const byPath = match && operations.find((operation) => operation.method === match[1]!.toUpperCase() && operation.path === match[2]);
  if (byPath) return byPath;
  throw parseFailure("plugin_parse_operation_unknown", { operation: choice, operations: list }, "operation");
}

function serverUrl(document: Node, operation: Operation): string {
  const servers = [operation.node.servers, operation.pathItem.servers, document.servers].find((list) => Array.isArray(list) && list.length > 0) as
    | unknown[]
    | undefined;
  const server = servers?.[0];
  if (!isPlainObject(server) || !text(server.url)) throw parseFailure("plugin_parse_openapi_no_server");
  const variables = isPlainObject(server.variables) ? server.variables : {};
  const url = text(server.url).replace(/\{(\w+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isPlainObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
  if (!/^https?:\/\//i.test(url)) throw parseFailure("plugin_parse_openapi_no_server");
  return url.replace(/\/+$/, "");
}

/** Turns one operation of an OpenAPI 3.x document (JSON or YAML) into a plugin draft. */
export function parseOpenApi(content: string, operationChoice?: string): ParseResult {
  const document = readDocument(content);
  const resolve = resolver(document);
  const operations = listOperations(document);
  const operation = pickOperation(operations, operationChoice);
  const requestUrl = `${serverUrl(document, operation)}${operation.path}`;
  const warnings: string[] = [];

  const toParameter = (
    name: string,
    rawSchema: unknown,
    required: boolean,
    description: string,
    location: ParameterLocation | undefined,
    depth: number,
  ): PluginParameter => {
    const schema = flatten(resolve(rawSchema), resolve);
    const declared = Array.isArray(schema.type) ? (schema.type as unknown[]).find((type) => type !== "null") : schema.type;
    const type = declared ?? (isPlainObject(schema.properties) ? "object" : isPlainObject(schema.items) ? "array" : "string");
    const notes = [description || text(schema.description) || text(schema.title)];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) notes.push(`One of: ${schema.enum.map((value) => String(value)).join(", ")}`);
    const parameter: PluginParameter = {
      name,
      type: "string",
      description: notes.filter(Boolean).join(". "),
      required,
      ...(location ? { location } : {}),
    };
    if (schema.default !== undefined && schema.default !== null) parameter.default = schema.default;
    if (type === "integer") parameter.type = "integer";
    else if (type === "number") parameter.type = "float";
    else if (type === "boolean") parameter.type = "boolean";
    else if (type === "object") {
      parameter.type = "object";
      if (depth < MAX_DEPTH) parameter.children = objectParameters(schema, depth + 1);
    } else if (type === "array") {
      parameter.type = "array";
      const items = flatten(resolve(schema.items), resolve);
      const itemType = Array.isArray(items.type) ? undefined : items.type;
      if ((itemType === "object" || isPlainObject(items.properties)) && depth < MAX_DEPTH) parameter.children = objectParameters(items, depth + 1);
      else if (itemType === "integer") parameter.itemType = "integer";
      else if (itemType === "number") parameter.itemType = "float";
      else if (itemType === "boolean") parameter.itemType = "boolean";
      else parameter.itemType = "string";
    }
    return parameter;
  };

  const objectParameters = (schema: Node, depth: number, location?: ParameterLocation): PluginParameter[] => {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    return Object.entries(properties).map(([name, property]) => toParameter(name, property, required.has(name), "", location, depth));
  };

  // Operation-level parameters replace path-level ones of the same name and place.
  const declared = new Map<string, Node>();
  for (const source of [operation.pathItem.parameters, operation.node.parameters]) {
    if (!Array.isArray(source)) continue;
    for (const raw of source) {
      const parameter = resolve(raw);
      declared.set(`${text(parameter.in)}:${text(parameter.name)}`, parameter);
    }
  }
  const requestParams: PluginParameter[] = [];
  for (const parameter of declared.values()) {
    const location = text(parameter.in);
    if (location === "cookie") {
      warnings.push(`The cookie parameter "${text(parameter.name)}" was left out; add it as a Cookie header if the API needs it.`);
      continue;
    }
    if (location !== "path" && location !== "query" && location !== "header") continue;
    const schema =
      parameter.schema ??
      (isPlainObject(parameter.content) ? Object.values(parameter.content).map((media) => (isPlainObject(media) ? media.schema : undefined))[0] : undefined);
    requestParams.push(toParameter(text(parameter.name), schema, location === "path" || parameter.required === true, text(parameter.description), location, 0));
  }

  const body = resolve(operation.node.requestBody);
  const media = jsonMedia(body.content);
  if (media) {
    const schema = flatten(resolve(media.schema), resolve);
    if (isPlainObject(schema.properties)) requestParams.push(...objectParameters(schema, 0, "body"));
    else if (schema.type !== undefined || media.schema !== undefined) {
      warnings.push("The request body is not a JSON object; Parley sends the arguments as one JSON object, so the body was left out.");
    }
  } else if (isPlainObject(body.content) && Object.keys(body.content).length > 0) {
    warnings.push(`The request body is ${Object.keys(body.content).join(", ")}; Parley sends JSON bodies, so it was left out.`);
  }

  const responseParams: PluginParameter[] = [];
  const responses = isPlainObject(operation.node.responses) ? operation.node.responses : {};
  const success = ["200", "201", "202", "2XX", "2xx", "default"].map((status) => responses[status]).find((response) => response !== undefined);
  if (success !== undefined) {
    const responseMedia = jsonMedia(resolve(success).content);
    if (responseMedia) {
      const schema = flatten(resolve(responseMedia.schema), resolve);
      if (isPlainObject(schema.properties)) responseParams.push(...objectParameters(schema, 0));
      else if (schema.type === "array") {
        const items = flatten(resolve(schema.items), resolve);
        if (isPlainObject(items.properties))
          responseParams.push({ name: "items", type: "array", description: "The answer is a list", required: true, children: objectParameters(items, 1) });
      }
    }
  }

  warnings.push(...nameWarnings(requestParams));
  const components = isPlainObject(document.components) ? document.components : {};
  const schemes = isPlainObject(components.securitySchemes) ? Object.values(components.securitySchemes).map((scheme) => resolve(scheme)) : [];
  for (const scheme of schemes) {
    if (scheme.type === "apiKey" && scheme.in === "header") warnings.push(`The API wants a key in the "${text(scheme.name)}" header; add it under headers.`);
    else if (scheme.type === "http") warnings.push(`The API wants ${text(scheme.scheme) || "HTTP"} authentication; add an Authorization header.`);
    else if (scheme.type === "apiKey" && scheme.in === "query")
      warnings.push(`The API wants a key in the "${text(scheme.name)}" query parameter; add it to the request URL.`);
  }
  const info = isPlainObject(document.info) ? document.info : {};
  const name = text(operation.node.summary) || text(operation.node.operationId) || text(info.title) || nameFromUrl(new URL(requestUrl.replace(/[{}]/g, "")));
  const description = text(operation.node.description) || text(operation.node.summary) || text(info.description) || name;
  return {
    draft: {
      name: name.slice(0, 100),
      description: description.slice(0, 2000),
      avatar: "",
      requestUrl,
      requestMethod: operation.method,
      requestParams,
      responseParams,
      headers: {},
    },
    operations: operations.map((entry) => ({
      operationId: text(entry.node.operationId) || null,
      method: entry.method,
      path: entry.path,
      summary: text(entry.node.summary) || null,
    })),
    warnings,
  };
}

function jsonMedia(content: unknown): Node | undefined {
  if (!isPlainObject(content)) return undefined;
  const key = Object.keys(content).find((type) => /^application\/([\w.-]+\+)?json\b/i.test(type)) ?? Object.keys(content).find((type) => type === "*/*");
  const media = key ? content[key] : undefined;
  return isPlainObject(media) ? media : undefined;
}

/** Merges `allOf` parts and picks the first `oneOf`/`anyOf` choice, so that one object schema remains. */
function flatten(schema: Node, resolve: (node: unknown) => Node, depth = 0): Node {
  if (depth > MAX_DEPTH) return schema;
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => flatten(resolve(part), resolve, depth + 1));
    const properties = Object.assign(
      {},
      ...parts.map((part) => (isPlainObject(part.properties) ? part.properties : {})),
      isPlainObject(schema.properties) ? schema.properties : {},
    );
    const required = [
      ...parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])),
      ...(Array.isArray(schema.required) ? schema.required : []),
    ];
    const typed = parts.find((part) => part.type !== undefined);
    const { allOf: _allOf, ...rest } = schema;
    return { ...(typed ? { type: typed.type } : {}), ...rest, ...(Object.keys(properties).length > 0 ? { properties } : {}), required };
  }
  const choices = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (choices) {
    const first = choices.map((choice) => resolve(choice)).find((choice) => choice.type !== "null");
    if (first) {
      const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = schema;
      return flatten({ ...first, ...rest }, resolve, depth + 1);
    }
  }
  return schema;
}
