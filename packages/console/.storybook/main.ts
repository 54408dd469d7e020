import type { StorybookConfig } from "@storybook/react-vite";

// Storybook reads this file's default export; the repository's named-exports rule yields here.
const config: StorybookConfig = {
  stories: ["../src/**/*.stories.@(ts|tsx)"],
  framework: { name: "@storybook/react-vite", options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
