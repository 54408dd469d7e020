/** What the API-access snippets are built from. */
export interface SnippetInput {
  /** Where this console is served, e.g. `https://parley.example.com` (no trailing slash needed). */
  origin: string;
  /** The app to talk to: its code is the OpenAI `model`. */
  appCode: string;
  /** Shown where the key goes; never a real secret. */
  keyPlaceholder?: string;
}

/** The snippets the API-access page offers, by id. */
export interface Snippets {
  curl: string;
  curlStream: string;
  sdk: string;
  openai: string;
  /** The app's MCP endpoint (`/mcp/apps/{code}`, Streamable HTTP). */
  mcpUrl: string;
  /** An MCP client's server entry (`mcpServers`, as Cursor, Claude Code and others read it) with the bearer header. */
  mcpConfig: string;
}

export const DEFAULT_KEY_PLACEHOLDER = "YOUR_API_KEY";
export const APP_CODE_PLACEHOLDER = "YOUR_APP_CODE";

/** The origin without trailing slashes. */
export function normaliseOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "");
}

/** Quotes a value for a POSIX shell's single quotes. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Copy-paste examples for the OpenAI-compatible API and the SDK: curl (plain and streamed)
 * to `/v1/chat/completions`, the SDK's `chat.stream`, and the official `openai` client with
 * `baseURL` `${origin}/v1`. The model is always the app's code. The app's MCP endpoint and a
 * client configuration for it complete the set.
 */
export function buildSnippets({ origin, appCode, keyPlaceholder = DEFAULT_KEY_PLACEHOLDER }: SnippetInput): Snippets {
  const base = normaliseOrigin(origin);
  const code = appCode.trim() || APP_CODE_PLACEHOLDER;
  const body = (stream: boolean) => JSON.stringify({ model: code, messages: [{ role: "user", content: "Hello!" }], ...(stream ? { stream: true } : {}) });
  const curl = (stream: boolean) =>
    [
      `curl ${stream ? "-N " : ""}${shellQuote(`${base}/v1/chat/completions`)} \\`,
      `  -H ${shellQuote(`Authorization: Bearer ${keyPlaceholder}`)} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d ${shellQuote(body(stream))}`,
    ].join("\n");
  const js = (text: string) => JSON.stringify(text);

  const sdk = [
    `import { createClient } from '@parley/sdk';`,
    ``,
    `const parley = createClient({ baseUrl: ${js(base)}, apiKey: process.env.PARLEY_API_KEY });`,
    ``,
    `for await (const event of parley.chat.stream({ appCode: ${js(code)}, message: 'Hello!' })) {`,
    `  if (event.type === 'text-delta') process.stdout.write(event.text);`,
    `  if (event.type === 'error') console.error(event.code, event.message);`,
    `}`,
  ].join("\n");

  const openai = [
    `import OpenAI from 'openai';`,
    ``,
    `const client = new OpenAI({ baseURL: ${js(`${base}/v1`)}, apiKey: process.env.PARLEY_API_KEY });`,
    ``,
    `// The model is the app's code.`,
    `const completion = await client.chat.completions.create({`,
    `  model: ${js(code)},`,
    `  messages: [{ role: 'user', content: 'Hello!' }],`,
    `});`,
    `console.log(completion.choices[0]?.message.content);`,
    ``,
    `const stream = await client.chat.completions.create({`,
    `  model: ${js(code)},`,
    `  messages: [{ role: 'user', content: 'Hello!' }],`,
    `  stream: true,`,
    `});`,
    `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');`,
  ].join("\n");

  const mcpUrl = `${base}/mcp/apps/${encodeURIComponent(code)}`;
  const mcpConfig = JSON.stringify(
    { mcpServers: { [`parley-${code}`]: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${keyPlaceholder}` } } } },
    null,
    2,
  );

  return { curl: curl(false), curlStream: curl(true), sdk, openai, mcpUrl, mcpConfig };
}
