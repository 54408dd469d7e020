import { HomeOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from "@ant-design/icons";
import { TopSearch } from "../store/top-search";
import { Button, Flex, Layout, Menu, Result, Tag, Tooltip } from "antd";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { warnLoginFirst } from "../../lib/api/request";
import { forgetSpace } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { decideGuard } from "../../app/guard";
import { activeMenuKey, buildMenu, MENU_GROUP_LABEL_KEYS, menuFacts } from "../../app/menu";
import { PATHS } from "../../lib/paths";
import { sessionStore, useSession } from "../../lib/api/session";
import { refreshPrivileges, refreshSpaces } from "../../app/startup";
import { BrandLogo } from "../../components/brand-logo";
import { LanguageSwitch } from "../../components/language-switch";
import { PageLoader } from "../../components/page-loader";
import { SpaceSwitcher } from "../../components/space-switcher";
import { UpgradeDialog } from "../../components/upgrade-dialog";
import { JoinTeamDialog } from "../team/join-team-dialog";
import { useAccessFollow } from "./access-follow";
import { CheckInButton, DocsLink, NotificationsButton } from "./header-actions";
import { MENU_ICONS } from "./menu-icons";
import { saveLanguageToAccount } from "./save-language";
import { UserMenu } from "./user-menu";

const HINT_LABEL_KEYS = { standard: "menu.hints.standard", pro: "menu.hints.pro" } as const;

/** The console shell: the guard, the grouped left menu, the space switcher and the top bar. */
export function ConsoleLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const [collapsed, setCollapsed] = useState(false);
  useAccessFollow();

  useEffect(() => {
    if (!session.token) return;
    if (!session.privileges) void refreshPrivileges();
    if (session.userList.length === 0) void refreshSpaces();
    // Only a new session (token) or a changed plan needs the calls again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.token, session.user?.memberGrade, session.user?.spaceId]);

  const sections = useMemo(() => buildMenu(menuFacts(session.user, session.privileges)), [session.user, session.privileges]);
  const entries = sections.flatMap((section) => section.entries);
  const active = activeMenuKey(location.pathname, entries);

  const decision = decideGuard({ pathname: location.pathname, search: location.search, token: session.token, user: session.privileges ?? session.user });
  // The guard sends token-less visitors to sign in, with the spec's warning. By the time the
  // effect runs the address is already /login, so the guarded path is passed along.
  const guardedPath = location.pathname;
  useEffect(() => {
    if (decision.kind === "login") warnLoginFirst(guardedPath);
  }, [decision.kind, guardedPath]);
  if (decision.kind === "login") return <Navigate to={`${PATHS.login}?returnTo=${encodeURIComponent(decision.returnTo)}`} replace />;
  if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;

  const selectSpace = async (spaceId: string) => {
    const previous = session.user?.spaceId;
    const result = await endpoints.spaces.select(spaceId);
    if (!result.ok) return;
    // Leave the old space's screen before the space changes: the screens are keyed by the
    // space, and a detail page (an app, a knowledge base) would reload its item in the new one.
    await navigate(PATHS.agents);
    sessionStore.setUser(result.data);
    void forgetSpace(previous);
    sessionStore.setPrivileges(undefined);
    await Promise.all([refreshSpaces(), refreshPrivileges()]);
    feedback.success(t("spaces.switched", { name: result.data.companyName }));
  };

  const createTeam = async (companyName: string): Promise<boolean> => {
    const previous = session.user?.spaceId;
    const result = await endpoints.spaces.create({ companyName });
    if (!result.ok) return false;
    await navigate(PATHS.agents);
    const me = await endpoints.me.get();
    if (me.ok) {
      sessionStore.setUser(me.data);
      void forgetSpace(previous);
    }
    sessionStore.setPrivileges(undefined);
    await Promise.all([refreshSpaces(), refreshPrivileges()]);
    feedback.success(t("spaces.createTeam.created", { name: companyName }));
    return true;
  };

  return (
    <Layout className="pl-console" hasSider>
      <Layout.Sider
        className="pl-console__sider"
        width={232}
        collapsedWidth={72}
        collapsible
        collapsed={collapsed}
        trigger={null}
        breakpoint="lg"
        onBreakpoint={setCollapsed}
      >
        <Link to={PATHS.agents} className="pl-console__logo" aria-label={t("nav.console")}>
          <BrandLogo markOnly={collapsed} />
        </Link>
        <Menu
          mode="inline"
          className="pl-console__menu"
          selectedKeys={active ? [active] : []}
          data-testid="console-menu"
          items={sections.map((section) => ({
            type: "group" as const,
            key: section.group,
            label: collapsed ? null : t(MENU_GROUP_LABEL_KEYS[section.group]),
            children: section.entries.map((entry) => ({
              key: entry.key,
              icon: MENU_ICONS[entry.key],
              label: (
                <span className="pl-menu-label" data-testid={`menu-${entry.key}`}>
                  <span>{t(entry.labelKey)}</span>
                  {entry.hint ? (
                    <Tag className="pl-menu-hint" color={entry.hint === "pro" ? "purple" : "blue"} variant="filled">
                      {t(HINT_LABEL_KEYS[entry.hint])}
                    </Tag>
                  ) : null}
                </span>
              ),
            })),
          }))}
          onClick={({ key }) => {
            const entry = entries.find((item) => item.key === key);
            if (entry) navigate(entry.route);
          }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="pl-console__header">
          <Flex align="center" gap={8}>
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((value) => !value)}
              aria-label={collapsed ? t("nav.expandMenu") : t("nav.collapseMenu")}
            />
            {session.token ? (
              <SpaceSwitcher
                spaces={session.userList}
                current={session.nowSelect}
                fallbackName={session.user?.companyName}
                onSelect={(spaceId) => void selectSpace(spaceId)}
                onCreateTeam={createTeam}
              />
            ) : null}
          </Flex>
          <Flex align="center" gap={4}>
            <TopSearch />
            <Tooltip title={t("nav.portal")}>
              <Button type="text" icon={<HomeOutlined />} onClick={() => navigate(PATHS.home)} data-testid="portal-link" aria-label={t("nav.portal")} />
            </Tooltip>
            <DocsLink iconOnly />
            <NotificationsButton />
            {session.token ? <CheckInButton /> : null}
            <LanguageSwitch onChange={(language) => void saveLanguageToAccount(language)} />
            {session.token ? (
              <UserMenu user={session.user} />
            ) : (
              <Button type="primary" onClick={() => navigate(PATHS.login)} data-testid="login-link">
                {t("nav.login")}
              </Button>
            )}
          </Flex>
        </Layout.Header>
        <Layout.Content className="pl-console__content">
          {decision.kind === "forbidden" ? (
            <Result status="403" title={t("errors.noPermissionTitle")} subTitle={t("errors.noPermission")} data-testid="no-permission" />
          ) : (
            // Every screen below holds data of the current space (lists, forms, editors), so
            // the subtree is keyed by the space: a switch remounts it and each screen loads the
            // new space's data, instead of each screen having to watch for the switch.
            <Suspense key={session.user?.spaceId ?? ""} fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          )}
          <UpgradeDialog />
          <JoinTeamDialog />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
