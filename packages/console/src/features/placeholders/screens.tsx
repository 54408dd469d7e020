import {
  ApiOutlined,
  AppstoreAddOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BgColorsOutlined,
  BookOutlined,
  ClusterOutlined,
  CodeOutlined,
  CommentOutlined,
  ContactsOutlined,
  CrownOutlined,
  DatabaseOutlined,
  EditOutlined,
  ExperimentOutlined,
  FileAddOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FormOutlined,
  GiftOutlined,
  GlobalOutlined,
  KeyOutlined,
  LayoutOutlined,
  MessageOutlined,
  NodeIndexOutlined,
  PictureOutlined,
  SettingOutlined,
  ShopOutlined,
  TableOutlined,
  TagsOutlined,
  WifiOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";

/** A screen that exists as a route but whose content lands in a later issue. */
export interface ScreenInfo {
  /** i18n key of the screen's name. */
  titleKey: string;
  /** i18n key of what the screen will offer. */
  descriptionKey: string;
  icon: ReactNode;
}

/** Every not-yet-built screen of spec §2, by id. */
export const SCREENS = {
  home: { titleKey: "screens.home.title", descriptionKey: "screens.home.description", icon: <ShopOutlined /> },
  square: { titleKey: "screens.square.title", descriptionKey: "screens.square.description", icon: <GlobalOutlined /> },
  chat: { titleKey: "screens.chat.title", descriptionKey: "screens.chat.description", icon: <MessageOutlined /> },
  paint: { titleKey: "screens.paint.title", descriptionKey: "screens.paint.description", icon: <BgColorsOutlined /> },
  templates: { titleKey: "screens.templates.title", descriptionKey: "screens.templates.description", icon: <LayoutOutlined /> },
  template: { titleKey: "screens.template.title", descriptionKey: "screens.template.description", icon: <LayoutOutlined /> },
  agents: { titleKey: "screens.agents.title", descriptionKey: "screens.agents.description", icon: <AppstoreOutlined /> },
  createApp: { titleKey: "screens.createApp.title", descriptionKey: "screens.createApp.description", icon: <AppstoreAddOutlined /> },
  agent: { titleKey: "screens.agent.title", descriptionKey: "screens.agent.description", icon: <EditOutlined /> },
  integrations: { titleKey: "screens.integrations.title", descriptionKey: "screens.integrations.description", icon: <ApiOutlined /> },
  chatManage: { titleKey: "screens.chatManage.title", descriptionKey: "screens.chatManage.description", icon: <CommentOutlined /> },
  clients: { titleKey: "screens.clients.title", descriptionKey: "screens.clients.description", icon: <WifiOutlined /> },
  clientConfig: { titleKey: "screens.clientConfig.title", descriptionKey: "screens.clientConfig.description", icon: <SettingOutlined /> },
  webEmbedConfig: { titleKey: "screens.webEmbedConfig.title", descriptionKey: "screens.webEmbedConfig.description", icon: <CodeOutlined /> },
  analysis: { titleKey: "screens.analysis.title", descriptionKey: "screens.analysis.description", icon: <BarChartOutlined /> },
  knowledge: { titleKey: "screens.knowledge.title", descriptionKey: "screens.knowledge.description", icon: <BookOutlined /> },
  baseAll: { titleKey: "screens.baseAll.title", descriptionKey: "screens.baseAll.description", icon: <BookOutlined /> },
  baseFile: { titleKey: "screens.baseFile.title", descriptionKey: "screens.baseFile.description", icon: <FileTextOutlined /> },
  importFile: { titleKey: "screens.importFile.title", descriptionKey: "screens.importFile.description", icon: <FileAddOutlined /> },
  retrievalFile: { titleKey: "screens.retrievalFile.title", descriptionKey: "screens.retrievalFile.description", icon: <FileSearchOutlined /> },
  baseSetting: { titleKey: "screens.baseSetting.title", descriptionKey: "screens.baseSetting.description", icon: <SettingOutlined /> },
  mediaResource: { titleKey: "screens.mediaResource.title", descriptionKey: "screens.mediaResource.description", icon: <PictureOutlined /> },
  database: { titleKey: "screens.database.title", descriptionKey: "screens.database.description", icon: <DatabaseOutlined /> },
  preview: { titleKey: "screens.preview.title", descriptionKey: "screens.preview.description", icon: <TableOutlined /> },
  tableConfig: { titleKey: "screens.tableConfig.title", descriptionKey: "screens.tableConfig.description", icon: <TableOutlined /> },
  databaseConfig: { titleKey: "screens.databaseConfig.title", descriptionKey: "screens.databaseConfig.description", icon: <SettingOutlined /> },
  plugins: { titleKey: "screens.plugins.title", descriptionKey: "screens.plugins.description", icon: <ClusterOutlined /> },
  pluginDetail: { titleKey: "screens.pluginDetail.title", descriptionKey: "screens.pluginDetail.description", icon: <ExperimentOutlined /> },
  workflows: { titleKey: "screens.workflows.title", descriptionKey: "screens.workflows.description", icon: <NodeIndexOutlined /> },
  workflow: { titleKey: "screens.workflow.title", descriptionKey: "screens.workflow.description", icon: <NodeIndexOutlined /> },
  price: { titleKey: "screens.price.title", descriptionKey: "screens.price.description", icon: <CrownOutlined /> },
  customManage: { titleKey: "screens.customManage.title", descriptionKey: "screens.customManage.description", icon: <ContactsOutlined /> },
  customerList: { titleKey: "screens.customerList.title", descriptionKey: "screens.customerList.description", icon: <ContactsOutlined /> },
  tagList: { titleKey: "screens.tagList.title", descriptionKey: "screens.tagList.description", icon: <TagsOutlined /> },
  pluginKey: { titleKey: "screens.pluginKey.title", descriptionKey: "screens.pluginKey.description", icon: <KeyOutlined /> },
  benefits: { titleKey: "screens.benefits.title", descriptionKey: "screens.benefits.description", icon: <GiftOutlined /> },
  webAgent: { titleKey: "screens.webAgent.title", descriptionKey: "screens.webAgent.description", icon: <MessageOutlined /> },
  webIframe: { titleKey: "screens.webIframe.title", descriptionKey: "screens.webIframe.description", icon: <MessageOutlined /> },
  fillForm: { titleKey: "screens.fillForm.title", descriptionKey: "screens.fillForm.description", icon: <FormOutlined /> },
  iframe: { titleKey: "screens.iframe.title", descriptionKey: "screens.iframe.description", icon: <MessageOutlined /> },
} satisfies Record<string, ScreenInfo>;

/** The id of a not-yet-built screen. */
export type ScreenId = keyof typeof SCREENS;
