import { QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider } from "antd";
import type { Locale } from "antd/es/locale";
import enUS from "antd/locale/en_US";
import zhCN from "antd/locale/zh_CN";
import type { ReactNode } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { i18n, normaliseLanguage, type Language } from "../i18n";
import { queryClient } from "../lib/api/query";
import { FeedbackBridge } from "../lib/feedback";
import { parleyTheme } from "./theme";

const ANTD_LOCALES: Record<Language, Locale> = { en: enUS, "zh-CN": zhCN };

function Themed({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const language = normaliseLanguage(instance.language);
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={parleyTheme}>
      <AntApp className="pl-app">
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/** Props of {@link AppProviders}. */
export interface AppProvidersProps {
  children: ReactNode;
}

/** The server-state cache, i18n, antd's theme and locale (following the interface language), and the feedback bridge. */
export function AppProviders({ children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <Themed>{children}</Themed>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
