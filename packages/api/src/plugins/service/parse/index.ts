import { parseCurl } from "./curl";
import type { ParseResult } from "./draft";
import { parseOpenApi } from "./openapi";

/** What to parse. */
export interface ParseInput {
  source: "openapi" | "curl";
  content: string;
  /** For OpenAPI: operationId or `METHOD /path`. */
  operation?: string;
}

/** Parses an OpenAPI document or a curl command into a plugin draft (the first step of creating a plugin). */
export function parsePlugin(input: ParseInput): ParseResult {
  return input.source === "curl" ? parseCurl(input.content) : parseOpenApi(input.content, input.operation);
}
