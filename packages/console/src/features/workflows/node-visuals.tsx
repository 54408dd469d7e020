import {
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  BranchesOutlined,
  ClockCircleOutlined,
  CodeOutlined,
  CustomerServiceOutlined,
  DatabaseOutlined,
  FlagOutlined,
  MessageOutlined,
  PlayCircleOutlined,
  RobotOutlined,
  SendOutlined,
  ShareAltOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";
import { groupOf, type NodeGroup, type NodeType } from "./workflow-model";

/** The icon of each node type. */
export const NODE_ICONS: Record<NodeType, ReactNode> = {
  start: <PlayCircleOutlined />,
  end: <FlagOutlined />,
  app: <AppstoreOutlined />,
  llm: <RobotOutlined />,
  knowledge_base: <BookOutlined />,
  database: <DatabaseOutlined />,
  plugin: <ApiOutlined />,
  code_block: <CodeOutlined />,
  intent_branch: <ShareAltOutlined />,
  logic_branch: <BranchesOutlined />,
  fixed_reply: <MessageOutlined />,
  channel_send: <SendOutlined />,
  manual: <CustomerServiceOutlined />,
  timer: <ClockCircleOutlined />,
};

/** Accent colour per palette group. */
export const GROUP_COLORS: Record<NodeGroup, string> = { basic: "#4f5bd5", branch: "#d97706", individuality: "#0f9f6e" };

/** Accent colour of a node type. */
export function nodeColor(type: NodeType): string {
  if (type === "start") return "#16a34a";
  if (type === "end") return "#dc2626";
  return GROUP_COLORS[groupOf(type)];
}

/** i18n key of a node type's label. */
export const nodeTypeLabelKey = (type: NodeType) => `workflows.nodeTypes.${type}`;
/** i18n key of a node type's one-line description. */
export const nodeTypeHintKey = (type: NodeType) => `workflows.nodeHints.${type}`;
