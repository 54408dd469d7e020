import { count, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { expect } from "vitest";
import * as tables from "../db/schema/index";
import { envelopeOf, errorEnvelope } from "../http/envelope";
import type { Logger } from "../logger";
import { latestCode, type TestContext } from "./harness";

/** A parsed failure envelope. */
export type ErrorBody = z.infer<typeof errorEnvelope>;

/**
 * Asserts a success answer: status first, then the body parsed by the route's data schema.
 * Returns the parsed `data`.
 */
export async function expectOk<T extends z.ZodType>(response: Response, status: 200 | 201, data: T): Promise<z.infer<T>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = envelopeOf(data).parse(JSON.parse(text)) as { code: number; data: z.infer<T> };
  expect(body.code).toBe(status);
  return body.data;
}

/**
 * Asserts a failure answer: status, then the error envelope (code equals status unless given),
 * and optionally the field it names. Returns the parsed body.
 */
export async function expectError(
  response: Response,
  status: number,
  expected: { field?: string; message?: string | RegExp; code?: number } = {},
): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = errorEnvelope.parse(JSON.parse(text));
  expect(body.code).toBe(expected.code ?? status);
  if (expected.field !== undefined) expect(body.data?.field).toBe(expected.field);
  if (expected.message !== undefined) {
    if (typeof expected.message === "string") expect(body.message).toBe(expected.message);
    else expect(body.message).toMatch(expected.message);
  }
  return body;
}

/** Asks for a one-time code. */
export function sendCode(
  ctx: TestContext,
  input: { channel?: "email" | "phone"; target: string; purpose: string },
  init: { token?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return ctx.request("/api/v1/auth/codes", {
    method: "POST",
    json: { channel: input.channel ?? "email", ...input },
    ...(init.token ? { token: init.token } : {}),
    ...(init.headers ? { headers: init.headers } : {}),
  });
}

/** Sends a code and reads it back from the outbox. */
export async function codeFor(ctx: TestContext, input: { channel?: "email" | "phone"; target: string; purpose: string }, token?: string) {
  const response = await sendCode(ctx, input, token ? { token } : {});
  expect(response.status, await response.clone().text()).toBe(200);
  const stored = input.channel === "phone" ? input.target.replace(/[\s\-()]/g, "") : input.target.trim().toLowerCase();
  return latestCode(ctx, stored);
}

/** Password sign-in, form-encoded as the console sends it. */
export function login(ctx: TestContext, username: string, password: string): Promise<Response> {
  return ctx.request("/api/v1/auth/login", { method: "POST", form: { username, password } });
}

/** Every table the identity, space and key domains own. */
export const allTables = {
  users: tables.users,
  sessions: tables.sessions,
  verificationCodes: tables.verificationCodes,
  signInGrants: tables.signInGrants,
  externalIdentities: tables.externalIdentities,
  oauthStates: tables.oauthStates,
  outbox: tables.outbox,
  spaces: tables.spaces,
  spaceMembers: tables.spaceMembers,
  apiKeys: tables.apiKeys,
  userKeys: tables.userKeys,
} as const;

/** Row counts of every table, to prove a request changed nothing. */
export async function rowCounts(ctx: TestContext): Promise<Record<keyof typeof allTables, number>> {
  const counts = {} as Record<keyof typeof allTables, number>;
  for (const [name, table] of Object.entries(allTables)) {
    const row = await ctx.deps.db.select({ n: count() }).from(table).get();
    counts[name as keyof typeof allTables] = row?.n ?? 0;
  }
  return counts;
}

/** The stored user row for an address. */
export async function userRow(ctx: TestContext, email: string) {
  return ctx.deps.db.select().from(tables.users).where(eq(tables.users.email, email)).get();
}

/** A clock tests move by hand. */
export function manualClock(start = Date.now()) {
  let at = start;
  return {
    now: () => new Date(at),
    advance(milliseconds: number) {
      at += milliseconds;
    },
    set(date: Date) {
      at = date.getTime();
    },
  };
}

/** A logger that keeps every line it is given. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`);
  };
  return { lines, debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") };
}
