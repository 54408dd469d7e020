import type { Config } from "../../../config";
import { messageText } from "../../../i18n/catalogue";
import type { Language } from "../../../i18n/language";
import type { Resolver } from "../network";
import { coerceObject, objectSchema, type PluginParameter } from "../parameters";
import { CalculatorError, evaluateExpression, formatNumber } from "./calculator";
import { timeIn, TimeZoneError } from "./current-time";
import { type BuiltinOutcome, fetchWebpage, webSearch } from "./web";

/** What a built-in may use while it runs. */
export interface BuiltinContext {
  config: Config["plugins"];
  now: () => Date;
  signal?: AbortSignal;
  resolver?: Resolver;
}

/** Codes of the plugins that ship with Parley; each has its name and description in plugins/messages.ts. */
export type BuiltinCode = "current_time" | "calculator" | "fetch_webpage" | "web_search";

/** A plugin that ships with Parley. */
export interface BuiltinPlugin {
  code: BuiltinCode;
  scope: "utility" | "web";
  /** What the model reads (English: models follow it best). */
  toolDescription: string;
  parameters: PluginParameter[];
  available(config: Config["plugins"]): boolean;
  run(context: BuiltinContext, args: Record<string, unknown>): Promise<BuiltinOutcome>;
}

const parameter = (
  name: string,
  type: PluginParameter["type"],
  description: string,
  required: boolean,
  extra: Partial<PluginParameter> = {},
): PluginParameter => ({
  name,
  type,
  description,
  required,
  ...extra,
});

/** Every built-in plugin, by code. */
export const builtinPlugins: BuiltinPlugin[] = [
  {
    code: "current_time",
    scope: "utility",
    toolDescription: "Get the current date, time, weekday and UTC offset in a time zone. Use it whenever the answer depends on today's date or the time now.",
    parameters: [parameter("timezone", "string", "IANA time zone name, e.g. Asia/Shanghai, America/New_York, Europe/London", false, { default: "UTC" })],
    available: () => true,
    async run(context, args) {
      try {
        return { ok: true, content: JSON.stringify(timeIn(context.now(), String(args.timezone))) };
      } catch (error) {
        if (error instanceof TimeZoneError) return { ok: false, content: error.message };
        throw error;
      }
    },
  },
  {
    code: "calculator",
    scope: "utility",
    toolDescription:
      "Compute an arithmetic expression exactly. Supports + - * / % ^, parentheses, sqrt, abs, round(x, digits), min, max, log(x[, base]), ln, log10, sin, cos, tan, floor, ceil and the constants pi and e. Angles are in radians.",
    parameters: [parameter("expression", "string", "The expression, e.g. (12.5 * 4 + 3) ^ 2 / sqrt(16)", true)],
    available: () => true,
    async run(_context, args) {
      try {
        const expression = String(args.expression);
        return { ok: true, content: `${expression.trim()} = ${formatNumber(evaluateExpression(expression))}` };
      } catch (error) {
        if (error instanceof CalculatorError) return { ok: false, content: `The expression could not be computed: ${error.message}` };
        throw error;
      }
    },
  },
  {
    code: "fetch_webpage",
    scope: "web",
    toolDescription:
      "Read a web page and return its title and readable text (scripts, styles and markup removed). Use it to read an address the person gives or a search result.",
    parameters: [
      parameter("url", "string", "Full address of the page, starting with http:// or https://", true),
      parameter("max_characters", "integer", "At most this many characters of text (100 to 50000)", false, { default: 20_000 }),
    ],
    available: () => true,
    run: (context, args) => fetchWebpage(context, { url: String(args.url), maxCharacters: Number(args.max_characters) }),
  },
  {
    code: "web_search",
    scope: "web",
    toolDescription: "Search the web and return the top results with title, address and snippet. Use it for recent events or facts you are not sure of.",
    parameters: [
      parameter("query", "string", "What to search for", true),
      parameter("count", "integer", "Number of results, 1 to 10", false, { default: 5 }),
      parameter("language", "string", "Language code of the results, e.g. en or zh-CN", false),
    ],
    available: (config) => config.webSearch !== undefined,
    run: (context, args) =>
      webSearch(context, {
        query: String(args.query),
        count: Number(args.count),
        ...(typeof args.language === "string" ? { language: args.language } : {}),
      }),
  },
];

/** The built-in with a code, if any. */
export function findBuiltin(code: string): BuiltinPlugin | undefined {
  return builtinPlugins.find((plugin) => plugin.code === code);
}

/** A built-in as the plugin list shows it, in the reader's language. */
export function builtinView(plugin: BuiltinPlugin, config: Config["plugins"], language: Language) {
  return {
    code: plugin.code,
    builtin: true as const,
    scope: plugin.scope,
    name: messageText(language, `plugin.builtin.${plugin.code}.name`),
    description: messageText(language, `plugin.builtin.${plugin.code}.description`),
    available: plugin.available(config),
    requestParams: plugin.parameters,
  };
}

/** The JSON Schema of a built-in's arguments. */
export function builtinSchema(plugin: BuiltinPlugin) {
  return { type: "object", ...objectSchema(plugin.parameters) };
}

/** Runs a built-in with the model's arguments; failures come back as text for the model. */
export async function runBuiltin(plugin: BuiltinPlugin, context: BuiltinContext, args: Record<string, unknown>): Promise<BuiltinOutcome> {
  const checked = coerceObject(plugin.parameters, args);
  if (checked.errors.length > 0) return { ok: false, content: `Invalid arguments for ${plugin.code}: ${checked.errors.join("; ")}.` };
  return plugin.run(context, checked.value);
}
