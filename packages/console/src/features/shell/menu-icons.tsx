import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BookOutlined,
  ClusterOutlined,
  CommentOutlined,
  DatabaseOutlined,
  SafetyCertificateOutlined,
  LayoutOutlined,
  NodeIndexOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
  UsergroupAddOutlined,
  WifiOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";

/** The icon of each console menu entry, by key. */
export const MENU_ICONS: Record<string, ReactNode> = {
  apps: <AppstoreOutlined />,
  knowledge: <BookOutlined />,
  database: <DatabaseOutlined />,
  plugins: <ClusterOutlined />,
  workflow: <NodeIndexOutlined />,
  integrations: <ApiOutlined />,
  clients: <WifiOutlined />,
  customers: <UsergroupAddOutlined />,
  chatManage: <CommentOutlined />,
  account: <UserOutlined />,
  dashboard: <BarChartOutlined />,
  team: <TeamOutlined />,
  instance: <SafetyCertificateOutlined />,
  templates: <LayoutOutlined />,
  store: <ShopOutlined />,
};
