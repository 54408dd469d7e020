import type { Meta, StoryObj } from "@storybook/react-vite";
import { CodeSnippet } from "./code-snippet";

// Sample snippets (the integrations screen builds the real ones); a component's story needs no feature code.
const snippets = {
  curl: `curl https://parley.example.com/v1/chat/completions \\
  -H "Authorization: Bearer $PARLEY_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model":"K7P2QX9MRT","messages":[{"role":"user","content":"Hello!"}]}'`,
  openai: `import OpenAI from 'openai';

const client = new OpenAI({ baseURL: 'https://parley.example.com/v1', apiKey: process.env.PARLEY_API_KEY });
const answer = await client.chat.completions.create({ model: 'K7P2QX9MRT', messages: [{ role: 'user', content: 'Hello!' }] });
console.log(answer.choices[0]?.message.content);`,
};

const meta = {
  title: "Components/CodeSnippet",
  component: CodeSnippet,
  args: { code: snippets.curl, language: "curl" },
} satisfies Meta<typeof CodeSnippet>;

export default meta;
type Story = StoryObj<typeof meta>;

/** curl to the OpenAI-compatible endpoint. */
export const Curl: Story = {};

/** The official openai client pointed at Parley. */
export const OpenAiClient: Story = { args: { code: snippets.openai, language: "TypeScript" } };
