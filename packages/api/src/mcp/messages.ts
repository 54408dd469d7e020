import { defineMessages } from "../i18n/define";

/** Messages of the MCP server: every app and published workflow reachable over Streamable HTTP. */
export const mcpServerMessages = defineMessages({
  mcp_session_unknown: {
    en: "This MCP session is unknown here or has expired: initialize a new session",
    "zh-CN": "该 MCP 会话不存在或已过期：请重新初始化会话",
  },
  mcp_session_required: {
    en: "Bad Request: send the Mcp-Session-Id header, or POST an initialize request to open a session",
    "zh-CN": "请求无效：请携带 Mcp-Session-Id 请求头，或先 POST 初始化请求以打开会话",
  },
  mcp_session_key_mismatch: {
    en: "This MCP session was opened with another key: every request of a session must carry the same key",
    "zh-CN": "该 MCP 会话是用另一个密钥打开的：同一会话的每个请求都必须携带相同的密钥",
  },
  mcp_session_target_mismatch: {
    en: "This MCP session belongs to another app or workflow",
    "zh-CN": "该 MCP 会话属于另一个应用或工作流",
  },
  mcp_app_not_found: {
    en: "The app `{code}` does not exist or your key may not reach it",
    "zh-CN": "应用 `{code}` 不存在，或您的密钥无权访问",
  },
  mcp_workflow_not_found: {
    en: "The workflow `{id}` does not exist, is not published, or your key may not reach it",
    "zh-CN": "工作流 `{id}` 不存在、未发布，或您的密钥无权访问",
  },
  mcp_workflow_user_key: {
    en: "A user key cannot run workflows over MCP: use a personal API key",
    "zh-CN": "用户密钥不能通过 MCP 运行工作流：请使用个人 API 密钥",
  },
  mcp_tool_ask: {
    en: "Ask the app a question and get its answer with the sources it cites. Follow-up questions in the same MCP session continue the same conversation.",
    "zh-CN": "向应用提问，得到它的回答及引用的来源。同一 MCP 会话中的后续提问延续同一段对话。",
  },
  mcp_tool_ask_question: { en: "The question or message for the app", "zh-CN": "发给应用的问题或消息" },
  mcp_tool_search: {
    en: "Search the app's knowledge bases: the best matching passages with their document names and citation numbers.",
    "zh-CN": "检索应用的知识库：返回最匹配的段落及其文档名和引用编号。",
  },
  mcp_tool_search_query: { en: "What to search for", "zh-CN": "检索内容" },
  mcp_tool_search_limit: { en: "How many passages at most (1–10, default 5)", "zh-CN": "最多返回的段落数（1–10，默认 5）" },
  mcp_tool_run: {
    en: "Run the workflow with the start node's inputs and get its output.",
    "zh-CN": "用开始节点的输入运行工作流，得到它的输出。",
  },
  mcp_tool_run_query: { en: "The text the run starts with ({{sys.query}})", "zh-CN": "运行的输入文本（{{sys.query}}）" },
  mcp_tool_no_answer: { en: "The app gave no answer", "zh-CN": "应用没有给出回答" },
  mcp_tool_sources: { en: "Sources", "zh-CN": "来源" },
  mcp_tool_nothing_found: { en: "Nothing in the knowledge bases matches this query", "zh-CN": "知识库中没有与此检索匹配的内容" },
  mcp_tool_run_failed: { en: "The workflow run failed: {reason}", "zh-CN": "工作流运行失败：{reason}" },
  mcp_tool_run_waiting: {
    en: "The workflow run {runId} is still waiting (a timer or a person); see its result in the run history",
    "zh-CN": "工作流运行 {runId} 仍在等待（定时器或人工）；请在运行记录中查看结果",
  },
});
