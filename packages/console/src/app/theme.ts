import type { ThemeConfig } from "antd";

/** Parley's antd theme: one brand colour, calm greys, dense admin spacing. */
export const parleyTheme: ThemeConfig = {
  token: {
    colorPrimary: "#4f5bd5",
    colorInfo: "#4f5bd5",
    colorSuccess: "#1f9d6b",
    colorWarning: "#d98a1c",
    colorError: "#d64545",
    colorBgLayout: "#f4f5fa",
    colorTextBase: "#1d2130",
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
    fontSize: 14,
  },
  components: {
    Layout: { headerBg: "#ffffff", siderBg: "#ffffff", headerHeight: 60, headerPadding: "0 20px", footerBg: "transparent" },
    Menu: { itemBorderRadius: 8, itemHeight: 38, groupTitleFontSize: 12, itemMarginInline: 10, activeBarBorderWidth: 0 },
    Card: { headerFontSize: 15 },
    Tabs: { horizontalMargin: "0 0 20px 0" },
    Button: { fontWeight: 500 },
  },
};
