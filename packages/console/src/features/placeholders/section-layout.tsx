import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router";
import { PageHeader } from "../../components/page-header";
import { SCREENS, type ScreenId } from "./screens";

/** Props of {@link SectionLayout}. */
export interface SectionLayoutProps {
  /** The section's own screen (its title heads the page). */
  screen: ScreenId;
  /** The address the child segments hang from. */
  base: string;
  /** Child segments, in tab order; each is also a screen id. */
  tabs: readonly ScreenId[];
  "data-testid"?: string;
}

/**
 * A console section whose children are navigation tabs (knowledge management, database,
 * customers): a title, the tabs as links, and the child route below.
 */
export function SectionLayout({ screen, base, tabs, "data-testid": testId }: SectionLayoutProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = tabs.find((tab) => pathname === `${base}/${tab}` || pathname.startsWith(`${base}/${tab}/`));
  return (
    <div className="pl-section" data-testid={testId}>
      <PageHeader title={t(SCREENS[screen].titleKey)} />
      <Tabs
        className="pl-section__tabs"
        activeKey={active ?? ""}
        onChange={(key) => navigate(`${base}/${key}`)}
        items={tabs.map((tab) => ({ key: tab, label: <span data-testid={`tab-${tab}`}>{t(SCREENS[tab].titleKey)}</span> }))}
      />
      <Outlet />
    </div>
  );
}
