import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ChatApp } from "../apps/service/index";
import { usesKnowledge } from "../chat/service/knowledge";
import { answerTurn } from "../conversation/answer";
import type { MessageCitation } from "../conversation/store";
import { ServiceError } from "../errors";
import { messageText } from "../i18n/catalogue";
import type { Language } from "../i18n/language";
import type { Deps } from "../kernel";
import { retrieveFromKnowledgeBases } from "../knowledge/service/retrieval";
import { type OpenAiCaller, openAiModelApp } from "../openai/service";
import { APP_VERSION } from "../system/routes";

/** The channel MCP turns are recorded under (usage records, analysis, rate-limit rules for all channels). */
export const MCP_CHANNEL = "mcp";

/** Characters of a passage `search_knowledge` answers. */
const PASSAGE_CHARS = 1200;

/** What a tool of a session needs: who calls, in which language, and the session's conversation. */
export interface AppToolContext {
  deps: Deps;
  caller: OpenAiCaller;
  appCode: string;
  language: Language;
  /** The session's conversation: its id once the first answer opened it, and the turn in progress. */
  conversation: { id?: string; turn?: Promise<unknown> };
}

/** A tool error the client shows: the model reads it, the protocol carries on. */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** A refusal of the service as a tool error in the session's language; anything else is rethrown. */
export function serviceToolError(language: Language, error: unknown): CallToolResult {
  if (error instanceof ServiceError) return toolError(messageText(language, error.messageId, error.params));
  throw error;
}

const citationShape = z.object({
  index: z.number().int().describe("The number the answer cites as [index]"),
  source: z.string().describe("The document's name"),
  content: z.string().describe("Excerpt of the cited passage"),
  score: z.number().optional().describe("Similarity of the passage to the question (0–1)"),
});

/**
 * The MCP server of one app: `ask` (one turn of a conversation kept for the session, through the
 * conversation core, so limits and credits apply as for every other entry point) and, for an
 * app with knowledge bases, `search_knowledge`. The app's description is the server's instructions.
 */
export function appMcpServer(app: ChatApp, context: AppToolContext): McpServer {
  const { language } = context;
  const server = new McpServer({ name: `parley-app-${app.code}`, title: app.name, version: APP_VERSION }, { instructions: app.description || app.name });

  server.registerTool(
    "ask",
    {
      title: app.name,
      description: messageText(language, "mcp_tool_ask"),
      inputSchema: { question: z.string().trim().min(1).max(10_000).describe(messageText(language, "mcp_tool_ask_question")) },
      outputSchema: {
        answer: z.string(),
        conversationId: z.string().describe("The Parley conversation this session continues"),
        citations: z.array(citationShape),
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    async ({ question }, extra) => {
      // Turns of one session run one after another, so a second question continues the conversation the first opened.
      const previous = context.conversation.turn ?? Promise.resolve();
      const turn = previous.then(() => ask(context, question, extra.signal)).catch((error: unknown) => serviceToolError(language, error));
      context.conversation.turn = turn.catch(() => undefined);
      return turn;
    },
  );

  if (usesKnowledge(app)) {
    server.registerTool(
      "search_knowledge",
      {
        title: `${app.name}: knowledge`,
        description: messageText(language, "mcp_tool_search"),
        inputSchema: {
          query: z.string().trim().min(1).max(2_000).describe(messageText(language, "mcp_tool_search_query")),
          limit: z.number().int().min(1).max(10).optional().describe(messageText(language, "mcp_tool_search_limit")),
        },
        outputSchema: {
          passages: z.array(
            z.object({
              citation: z.number().int().describe("Number of the passage, to cite as [n]"),
              documentName: z.string(),
              documentId: z.string(),
              knowledgeBaseId: z.string(),
              chunkId: z.string(),
              content: z.string(),
              score: z.number(),
              similarity: z.number().optional(),
            }),
          ),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async ({ query, limit }) => {
        try {
          return await searchKnowledge(context, query, limit ?? 5);
        } catch (error) {
          return serviceToolError(language, error);
        }
      },
    );
  }
  return server;
}

/** The app as the caller may reach it now (its settings may have changed since the session began). */
async function currentApp(context: AppToolContext): Promise<ChatApp> {
  const app = await openAiModelApp(context.deps, context.caller, context.appCode);
  if (app.spaceId !== context.caller.spaceId) throw new ServiceError("not_found", "mcp_app_not_found", { code: context.appCode });
  return app;
}

async function ask(context: AppToolContext, question: string, signal: AbortSignal): Promise<CallToolResult> {
  const { deps, caller, language } = context;
  const app = await currentApp(context);
  const events = await answerTurn(deps, {
    app,
    endUserId: caller.endUserId,
    channel: MCP_CHANNEL,
    text: question,
    language,
    signal,
    ...(context.conversation.id ? { conversationId: context.conversation.id } : {}),
    ...(caller.userKeyId ? { userKeyId: caller.userKeyId } : {}),
    ...(caller.memberUserId ? { memberUserId: caller.memberUserId } : {}),
  });
  let answer = "";
  const citations: MessageCitation[] = [];
  for await (const event of events) {
    if (event.type === "message-start") context.conversation.id = event.conversationId;
    else if (event.type === "text-delta") answer += event.text;
    else if (event.type === "citation")
      citations.push({ index: event.index, source: event.source, content: event.content, ...(event.score !== undefined ? { score: event.score } : {}) });
    else if (event.type === "error") return toolError(event.message);
  }
  const text = answer || messageText(language, "mcp_tool_no_answer");
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (citations.length) {
    const sources = citations.map((citation) => `[${citation.index}] ${citation.source}: ${citation.content}`).join("\n");
    content.push({ type: "text", text: `${messageText(language, "mcp_tool_sources")}:\n${sources}` });
  }
  return { content, structuredContent: { answer, conversationId: context.conversation.id ?? "", citations } };
}

async function searchKnowledge(context: AppToolContext, query: string, limit: number): Promise<CallToolResult> {
  const { deps, language } = context;
  const app = await currentApp(context);
  const hits = usesKnowledge(app)
    ? await retrieveFromKnowledgeBases(deps, app.spaceId, app.knowledgeBaseIds, {
        query,
        mode: app.retrievalMode,
        semanticCount: app.semanticCount,
        fullTextCount: app.fullTextCount,
        similarityThreshold: app.similarityThreshold,
      })
    : [];
  const passages = hits.slice(0, limit).map((hit, position) => ({
    citation: position + 1,
    documentName: hit.fileName,
    documentId: hit.fileId,
    knowledgeBaseId: hit.knowledgeBaseId,
    chunkId: hit.chunkId,
    content: hit.content.length > PASSAGE_CHARS ? `${hit.content.slice(0, PASSAGE_CHARS).trimEnd()}…` : hit.content,
    score: hit.score,
    ...(hit.similarity !== undefined ? { similarity: hit.similarity } : {}),
  }));
  const text = passages.length
    ? passages.map((passage) => `[${passage.citation}] ${passage.documentName}\n${passage.content}`).join("\n\n")
    : messageText(language, "mcp_tool_nothing_found");
  return { content: [{ type: "text", text }], structuredContent: { passages } };
}
