/** The widget's strings: English (canonical) and Chinese. */
export const en = {
  open: "Open chat",
  close: "Close chat",
  placeholder: "Type your message…",
  send: "Send",
  stop: "Stop",
  log: "Conversation",
  you: "You",
  offline: "You are offline. Your message will be sent when the connection is back.",
  notFound: "This chat is not available.",
  forbidden: "This chat is not enabled for this website.",
  network: "Cannot reach the chat service. Retrying…",
  failed: "Something went wrong. Please try again.",
  tooLong: "Your message is too long (2,000 characters at most).",
  stopped: "(stopped)",
  interrupted: "(interrupted)",
  questions: "Suggested questions",
  retry: "Retry",
  sources: "Sources",
  operator: "Support agent",
  manual: "A person from our team will answer you here.",
  talk: "Talk to a person",
  sent: "Sent — a person will reply here.",
  tooMany: "Too many attempts, try again in {s} s.",
  transferOff: "Talking to a person is not available here.",
};

/** Chinese strings; a test keeps their keys equal to {@link en}'s. */
export const zh: typeof en = {
  open: "打开聊天",
  close: "关闭聊天",
  placeholder: "请输入消息…",
  send: "发送",
  stop: "停止",
  log: "对话",
  you: "你",
  offline: "网络已断开。恢复连接后将自动发送你的消息。",
  notFound: "该聊天不可用。",
  forbidden: "该网站未启用此聊天。",
  network: "无法连接聊天服务，正在重试…",
  failed: "出错了，请重试。",
  tooLong: "消息过长（最多 2000 个字符）。",
  stopped: "（已停止）",
  interrupted: "（已中断）",
  questions: "推荐问题",
  retry: "重试",
  sources: "来源",
  operator: "人工客服",
  manual: "人工客服将在这里回复你。",
  talk: "转人工客服",
  sent: "已发送，人工客服将在这里回复你。",
  tooMany: "尝试次数过多，请 {s} 秒后再试。",
  transferOff: "此处暂不支持转人工客服。",
};

/** The strings for a visitor language such as `zh-CN` or `en-US`; English by default. */
export function stringsFor(language: string | undefined): typeof en {
  return /^zh/i.test(language ?? "") ? zh : en;
}
