import { AppstoreOutlined, RocketOutlined } from "@ant-design/icons";
import { Button, Flex, Layout, Menu } from "antd";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { isRouteListed } from "../../app/guard";
import { isEnterpriseGrade } from "../../app/menu";
import { isUnder, PATHS } from "../../lib/paths";
import { useSession } from "../../lib/api/session";
import { BrandLogo } from "../../components/brand-logo";
import { LanguageSwitch } from "../../components/language-switch";
import { PageLoader } from "../../components/page-loader";
import { CheckInButton, DocsLink, NotificationsButton } from "./header-actions";
import { saveLanguageToAccount } from "./save-language";
import { UserMenu } from "./user-menu";
import { TopSearch } from "../store/top-search";

/** Where the "chat" item of the top menu leads until recent chats exist. */
export const CHAT_ENTRY = "/app/recent";

/** The public shell: top menu (home, chat, paint, templates, square) and the top bar. */
export function HomeLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token, user } = useSession();

  const showSquare =
    user !== undefined && isEnterpriseGrade(user.memberGrade) && (!user.authorizedRoute || isRouteListed(PATHS.square, user.authorizedRouteList));

  const items = [
    { key: PATHS.home, label: t("nav.home") },
    { key: CHAT_ENTRY, label: t("nav.chat") },
    { key: PATHS.paint, label: t("nav.paint") },
    { key: PATHS.templates, label: t("nav.templates") },
    ...(showSquare ? [{ key: PATHS.square, label: t("nav.square") }] : []),
  ];
  const selected = isUnder(pathname, "/app")
    ? CHAT_ENTRY
    : isUnder(pathname, "/template")
      ? PATHS.templates
      : items.find((item) => isUnder(pathname, item.key))?.key;

  return (
    <Layout className="pl-home">
      <Layout.Header className="pl-topbar">
        <Link to={PATHS.home} className="pl-topbar__logo" aria-label={t("nav.home")}>
          <BrandLogo />
        </Link>
        <Menu
          mode="horizontal"
          disabledOverflow
          className="pl-topbar__menu"
          selectedKeys={selected ? [selected] : []}
          items={items}
          onClick={({ key }) => navigate(key)}
          data-testid="home-menu"
        />
        <TopSearch />
        <Flex align="center" gap={4} className="pl-topbar__actions">
          <Button type="text" icon={<AppstoreOutlined />} onClick={() => navigate(PATHS.agents)} data-testid="console-link">
            {t("nav.console")}
          </Button>
          <DocsLink />
          <Button type="text" onClick={() => navigate(PATHS.home)} data-testid="portal-link">
            {t("nav.portal")}
          </Button>
          <NotificationsButton />
          {token ? <CheckInButton iconOnly /> : null}
          <LanguageSwitch iconOnly onChange={(language) => void saveLanguageToAccount(language)} />
          {token ? (
            <UserMenu user={user} compact />
          ) : (
            <Button type="text" onClick={() => navigate(PATHS.login)} data-testid="login-link">
              {t("nav.login")}
            </Button>
          )}
          <Button type="primary" icon={<RocketOutlined />} onClick={() => navigate(token ? PATHS.createApp : PATHS.register)} data-testid="get-started">
            {t("nav.getStarted")}
          </Button>
        </Flex>
      </Layout.Header>
      <Layout.Content className="pl-home__content">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <Layout.Footer className="pl-home__footer">{t("footer.copyright", { year: new Date().getFullYear() })}</Layout.Footer>
    </Layout>
  );
}
