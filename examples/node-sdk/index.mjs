// Who am I? Prints the user a personal API key belongs to, their current space and how many
// API keys they have.
//
//   PARLEY_URL=http://localhost:3000 PARLEY_API_KEY=pk_... node examples/node-sdk/index.mjs
import { createClient } from "@parley/sdk";

const baseUrl = process.env.PARLEY_URL ?? "http://localhost:3000";
const apiKey = process.env.PARLEY_API_KEY;
if (!apiKey) {
  console.error("Set PARLEY_API_KEY to one of your personal API keys (pk_…); you can create one in the Parley console.");
  process.exit(1);
}

const parley = createClient({ baseUrl, apiKey, timeoutMs: 15_000 });

function fail(error) {
  const reference = error.requestId ? ` (request ${error.requestId})` : "";
  console.error(`Could not read your account from ${baseUrl}: ${error.message}${reference}`);
  process.exit(1);
}

const me = await parley.GET("/api/v1/me");
if (me.error) fail(me.error);
const { name, email, companyName } = me.data;
console.log(`Signed in as ${name}${email ? ` <${email}>` : ""}`);
console.log(`Current space: ${companyName}`);

const keys = await parley.GET("/api/v1/me/api-keys");
if (keys.error) fail(keys.error);
const count = keys.data.length;
console.log(`You have ${count} API key${count === 1 ? "" : "s"}.`);
