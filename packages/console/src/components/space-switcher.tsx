import { CheckOutlined, DownOutlined, PlusOutlined, TeamOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Button, Dropdown, Flex, Tag, Typography } from "antd";
import type { MenuProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SpaceEntry } from "../lib/api/types";
import { CreateTeamModal } from "./create-team-modal";

/** Props of {@link SpaceSwitcher}. */
export interface SpaceSwitcherProps {
  /** Every space of the user (userList). */
  spaces: SpaceEntry[];
  /** The current space (nowSelect); falls back to the entry marked current. */
  current?: SpaceEntry;
  /** Shown while no list has arrived yet. */
  fallbackName?: string;
  onSelect: (spaceId: string) => void;
  onCreateTeam: (companyName: string) => Promise<boolean>;
}

function initial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? "?";
}

/** The space menu of the console header: lists personal and team spaces and creates a team. */
export function SpaceSwitcher({ spaces, current, fallbackName, onSelect, onCreateTeam }: SpaceSwitcherProps) {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const selected = current ?? spaces.find((space) => space.current);
  const name = selected?.companyName ?? fallbackName ?? t("spaces.personal");

  const items: MenuProps["items"] = [
    {
      type: "group",
      label: t("spaces.switchTo"),
      children: spaces.map((space) => ({
        key: space.spaceId,
        icon: space.kind === "team" ? <TeamOutlined /> : <UserOutlined />,
        label: (
          <Flex align="center" justify="space-between" gap={12} className="pl-space-item" data-testid={`space-option-${space.spaceId}`}>
            <span className="pl-space-item__name">{space.companyName}</span>
            <Flex align="center" gap={4}>
              {space.kind === "team" ? (
                <Typography.Text type="secondary" data-testid={`space-role-${space.spaceId}`}>
                  {space.roleName}
                </Typography.Text>
              ) : null}
              <Tag variant="filled" color={space.kind === "team" ? "geekblue" : "default"}>
                {space.kind === "team" ? t("spaces.team") : t("spaces.personal")}
              </Tag>
              {space.spaceId === selected?.spaceId ? <CheckOutlined className="pl-space-item__check" /> : null}
            </Flex>
          </Flex>
        ),
      })),
    },
    { type: "divider" },
    { key: "__create", icon: <PlusOutlined />, label: <span data-testid="create-team">{t("spaces.createTeam.action")}</span> },
  ];

  return (
    <>
      <Dropdown
        trigger={["click"]}
        menu={{
          items,
          selectable: true,
          selectedKeys: selected ? [selected.spaceId] : [],
          onClick: ({ key }) => {
            if (key === "__create") setCreating(true);
            else if (key !== selected?.spaceId) onSelect(key);
          },
        }}
      >
        <Button type="text" className="pl-space-switcher" data-testid="space-switcher">
          <Avatar shape="square" size={24} className="pl-space-switcher__avatar">
            {initial(name)}
          </Avatar>
          <Typography.Text strong ellipsis className="pl-space-switcher__name">
            {name}
          </Typography.Text>
          <DownOutlined className="pl-space-switcher__caret" />
        </Button>
      </Dropdown>
      <CreateTeamModal open={creating} onCreate={onCreateTeam} onClose={() => setCreating(false)} />
    </>
  );
}
