// A standalone OpenAI-wire fake for the chat benchmark: answers every call at once with a
// fixed streamed reply and keeps no request log. Prints its base URL on stdout.
import { startOpenAiFake } from "../packages/api/src/testing/fakes/llm-openai";

const fake = await startOpenAiFake();
fake.always({ text: "Parley benchmark answer with a few words in it.", chunks: 8, usage: { promptTokens: 20, completionTokens: 10 }, record: false });
process.stdout.write(`${fake.url}\n`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
