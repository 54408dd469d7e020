import type { Decorator, Preview } from "@storybook/react-vite";
import { useEffect } from "react";
import { MemoryRouter } from "react-router";
import { AppProviders } from "../src/app/app-root";
import { changeLanguage, normaliseLanguage } from "../src/i18n";
import "../src/styles/global.css";

/** Wraps every story in the console's providers: i18n, antd theme and locale, a router. */
const withConsoleProviders: Decorator = (Story, context) => {
  const language = normaliseLanguage(String(context.globals.locale ?? "en"));
  useEffect(() => {
    void changeLanguage(language);
  }, [language]);
  return (
    <AppProviders>
      <MemoryRouter>
        <div style={{ padding: 24 }}>
          <Story />
        </div>
      </MemoryRouter>
    </AppProviders>
  );
};

const preview: Preview = {
  decorators: [withConsoleProviders],
  globalTypes: {
    locale: {
      description: "Interface language",
      toolbar: {
        title: "Language",
        icon: "globe",
        items: [
          { value: "en", title: "English" },
          { value: "zh-CN", title: "简体中文" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: "en" },
  parameters: {
    layout: "fullscreen",
    controls: { expanded: true },
  },
};

export default preview;
