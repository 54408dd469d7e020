import type { QaPair } from "../knowledge/service/sources/qa";

/**
 * What the seeded demo knows about Parley: Q&A pairs whose questions are the demo app's guiding
 * questions (in English and Chinese, so the offline responder answers each one with its answer),
 * and a short guide. `url` is the instance's public address, so the embed snippet is the real one.
 */

/** The demo app's guiding questions, in the order the opening introduction lists them. */
export const DEMO_QUESTIONS = {
  en: ["What can Parley do?", "How do I embed this chat on my site?", "How do I connect a language model?", "How do I talk to a person?"],
  "zh-CN": ["Parley 能做什么？", "如何把这个聊天窗口嵌入我的网站？", "如何接入大语言模型？", "如何转人工客服？"],
} as const;

/** The demo app's opening introduction: a greeting and the guiding questions in square brackets. */
export const DEMO_OPENING = `Hello! I am the Parley demo assistant, and I answer from a small knowledge base about Parley itself. ${DEMO_QUESTIONS.en.map((question) => `[${question}]`).join(" ")}`;

/** The demo client's welcome line; it says Chinese questions are welcome too. */
export const DEMO_WELCOME = "Hi! Ask me anything about Parley. 你好！也可以用中文提问。";

function embedSnippet(url: string): string {
  return `\`<script src="${url}/widget.js" data-client-id="demo" async></script>\``;
}

/** The Q&A pairs of the demo knowledge base: the guiding questions with useful answers. */
export function demoQaPairs(url: string): QaPair[] {
  const [whatEn, embedEn, modelEn, personEn] = DEMO_QUESTIONS.en;
  const [whatZh, embedZh, modelZh, personZh] = DEMO_QUESTIONS["zh-CN"];
  const pairs: Array<[string, string]> = [
    [
      whatEn,
      "Parley is an open AI agent platform. With it you can:\n" +
        "- build chat apps (light apps, knowledge apps, agents) and workflows;\n" +
        "- give them knowledge bases (documents, Q&A, tables, websites), databases and plugins;\n" +
        "- put them on your website with this chat widget, behind an OpenAI-compatible API, or on WeChat, Feishu, DingTalk, Slack, Telegram, Discord, WhatsApp and more;\n" +
        "- follow every conversation in Chat management, where a person can take over from the AI.\n" +
        "The console speaks English and Chinese.",
    ],
    [
      embedEn,
      `Paste one script tag into your page:\n\n${embedSnippet(url)}\n\n` +
        "It shows a chat bubble; this demo uses the web client `demo`. For your own site, create a web client under Clients in the console " +
        "(choose its app, colours, allowed origins and whether visitors may ask for a person) and copy its script tag from the Web embed page.",
    ],
    [
      modelEn,
      "Without a model, Parley answers with its offline responder: from Q&A pairs and knowledge-base extracts, like this demo. To connect a model, either " +
        "add a provider in the console under API access → Models, or start the server with `OPENAI_API_KEY` (or `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`, " +
        "or `PARLEY_OPENAI_COMPATIBLE_BASE_URL` for DeepSeek, Qwen, Ollama, vLLM and other OpenAI-compatible servers). " +
        "Apps then use `PARLEY_DEFAULT_MODEL` (gpt-4.1-mini) unless they choose another model.",
    ],
    [
      personEn,
      'Press "Talk to a person" below this chat. The conversation is handed over and waits for a person in Chat management (/console/chatManage); ' +
        "the AI stays silent while a person has it, and their replies appear right here, also in another tab of this browser. " +
        "On your own web clients, turn on manual transfer to offer the button.",
    ],
    [
      whatZh,
      "Parley 是一个开放的 AI 智能体平台，你可以用它：\n" +
        "- 搭建聊天应用（轻应用、知识库应用、智能体）和工作流；\n" +
        "- 为应用接入知识库（文档、问答、表格、网站）、数据库和插件；\n" +
        "- 通过这个聊天窗口嵌入网站，通过兼容 OpenAI 的 API 调用，或接入微信、飞书、钉钉、Slack、Telegram、Discord、WhatsApp 等渠道；\n" +
        "- 在“会话管理”中查看每一段对话，必要时由人工接管 AI。\n" +
        "控制台支持中文和英文。",
    ],
    [
      embedZh,
      `在网页中粘贴一个脚本标签即可：\n\n${embedSnippet(url)}\n\n` +
        "页面上会出现聊天气泡；这个演示使用的是网页客户端 `demo`。要用于你自己的网站，请在控制台的“客户端”中创建一个网页客户端" +
        "（选择应用、颜色、允许的来源，以及是否允许访客转人工），再到“网页嵌入”页面复制它的脚本标签。",
    ],
    [
      modelZh,
      "未配置模型时，Parley 使用离线应答器：像这个演示一样，直接用问答对和知识库摘录回答。接入模型有两种方式：" +
        "在控制台的“API 接入 → 模型”中添加模型供应商；或在启动服务器时设置 `OPENAI_API_KEY`（或 `ANTHROPIC_API_KEY`、`GEMINI_API_KEY`，" +
        "或用 `PARLEY_OPENAI_COMPATIBLE_BASE_URL` 接入 DeepSeek、通义千问、Ollama、vLLM 等兼容 OpenAI 的服务）。" +
        "应用默认使用 `PARLEY_DEFAULT_MODEL`（gpt-4.1-mini），也可以为每个应用另选模型。",
    ],
    [
      personZh,
      "点击聊天窗口下方的“转人工客服”。对话会转交给人工，并在“会话管理”（/console/chatManage）中等待人工接待；" +
        "人工接管期间 AI 不再回答，客服的回复会直接显示在这里，在本浏览器的其他标签页中也能看到。" +
        "在你自己的网页客户端中打开“转人工”即可提供这个按钮。",
    ],
  ];
  return pairs.map(([question, answer]) => ({ question, answer, searchMethod: "question" as const }));
}

/** A short guide to Parley in English and Chinese, imported as a Markdown document. */
export function demoGuide(url: string): string {
  return [
    "# About Parley",
    "",
    "Parley is an open AI agent platform you run yourself: one Node.js process, a SQLite file, no other set-up. " +
      `This server is at ${url}; the console is at ${url}/console and the API reference at ${url}/docs.`,
    "",
    "## Apps and knowledge",
    "",
    "Build light apps, knowledge apps and agents with a prompt, a model, knowledge bases, databases and plugins, or draw a workflow. " +
      "Knowledge bases take documents (txt, md, pdf, docx), Q&A pairs, tables and web pages; answers cite their sources.",
    "",
    "## Channels",
    "",
    "Publish an app on your website with the chat widget, through the OpenAI-compatible API (`/v1/chat/completions`, the model is the app's code), " +
      "or on WeChat, WeChat Work, Feishu, DingTalk, Discord, Telegram, Slack, HubSpot and WhatsApp, all set up under Clients.",
    "",
    "## People",
    "",
    "Every conversation shows in Chat management. A person can take a conversation over from the AI and answer; visitors can ask for a person themselves.",
    "",
    "# 关于 Parley",
    "",
    "Parley 是一个可自行部署的开放 AI 智能体平台：一个 Node.js 进程加一个 SQLite 文件，无需其他配置。" +
      `本服务器地址为 ${url}，控制台在 ${url}/console，API 文档在 ${url}/docs。`,
    "",
    "## 应用与知识库",
    "",
    "用提示词、模型、知识库、数据库和插件搭建轻应用、知识库应用和智能体，也可以绘制工作流。知识库支持文档（txt、md、pdf、docx）、问答对、表格和网页，回答会标注来源。",
    "",
    "## 渠道",
    "",
    "应用可以通过聊天窗口嵌入网站，通过兼容 OpenAI 的 API 调用，或在“客户端”中接入微信、企业微信、飞书、钉钉、Discord、Telegram、Slack、HubSpot 和 WhatsApp。",
    "",
    "## 人工客服",
    "",
    "所有对话都显示在“会话管理”中。人工可以从 AI 手中接管对话并回复；访客也可以主动请求转人工。",
    "",
  ].join("\n");
}
