import { buildSnippets, normaliseOrigin } from "../integrations/snippets";

/** The /pluginKey snippets: curl, JavaScript with the SDK, and Python with the openai client. */
export interface PluginKeySnippets {
  curl: string;
  sdk: string;
  python: string;
}

/**
 * Copy-paste examples for a plugin or integration calling one app with a user key: the app's
 * code is the OpenAI `model`; the key is read from the environment, never written in.
 */
export function pluginKeySnippets(origin: string, appCode: string): PluginKeySnippets {
  const base = normaliseOrigin(origin);
  const shared = buildSnippets({ origin: base, appCode, keyPlaceholder: "$PARLEY_USER_KEY" });
  const python = [
    "import os",
    "from openai import OpenAI",
    "",
    `client = OpenAI(base_url=${JSON.stringify(`${base}/v1`)}, api_key=os.environ["PARLEY_USER_KEY"])`,
    "",
    "# The model is the app's code.",
    "reply = client.chat.completions.create(",
    `    model=${JSON.stringify(appCode)},`,
    '    messages=[{"role": "user", "content": "Hello!"}],',
    ")",
    "print(reply.choices[0].message.content)",
  ].join("\n");
  return {
    curl: shared.curl.replace("'Authorization: Bearer $PARLEY_USER_KEY'", '"Authorization: Bearer $PARLEY_USER_KEY"'),
    sdk: shared.sdk.replace("PARLEY_API_KEY", "PARLEY_USER_KEY"),
    python,
  };
}
