import { AppstoreOutlined, DownOutlined, HomeOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Button, Dropdown, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PATHS } from "../../lib/paths";
import type { User } from "../../lib/api/types";
import { useSignOut } from "./use-sign-out";

/** Props of {@link UserMenu}. */
export interface UserMenuProps {
  user: User | undefined;
  /** Avatar only, for crowded top bars. */
  compact?: boolean;
}

function displayName(user: User | undefined): string {
  return user?.name || user?.email || user?.phone || "";
}

/** The avatar menu: account, console, store and sign-out. */
export function UserMenu({ user, compact = false }: UserMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = displayName(user);
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: [
          {
            key: "who",
            disabled: true,
            label: (
              <Flex vertical className="pl-user-menu__who">
                <Typography.Text strong>{name || t("account.unnamed")}</Typography.Text>
                <Typography.Text type="secondary" className="pl-user-menu__contact">
                  {user?.email ?? user?.phone ?? ""}
                </Typography.Text>
              </Flex>
            ),
          },
          { type: "divider" },
          { key: PATHS.account, icon: <UserOutlined />, label: <span data-testid="user-menu-account">{t("menu.account")}</span> },
          { key: PATHS.agents, icon: <AppstoreOutlined />, label: t("nav.console") },
          { key: PATHS.home, icon: <HomeOutlined />, label: t("nav.portal") },
          { type: "divider" },
          { key: "logout", icon: <LogoutOutlined />, danger: true, label: <span data-testid="logout">{t("nav.logout")}</span> },
        ],
        onClick: ({ key }) => {
          if (key === "logout") void signOut();
          else navigate(key);
        },
      }}
    >
      <Button type="text" className="pl-user-menu" data-testid="user-menu">
        <Avatar size={28} src={user?.avatarUrl ?? undefined} icon={user?.avatarUrl ? undefined : <UserOutlined />} className="pl-user-menu__avatar" />
        {compact ? null : <span className="pl-user-menu__name">{name}</span>}
        {compact ? null : <DownOutlined className="pl-user-menu__caret" />}
      </Button>
    </Dropdown>
  );
}
