import { RobotOutlined, TeamOutlined, UserOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { ServiceMode } from "../../lib/api/inbox";

const LOOK: Record<ServiceMode, { color: string; icon: React.ReactNode; key: string }> = {
  FULL_AUTO_MODE: { color: "blue", icon: <RobotOutlined />, key: "chatManage.mode.FULL_AUTO_MODE" },
  MANUAL_MODE: { color: "orange", icon: <UserOutlined />, key: "chatManage.mode.MANUAL_MODE" },
  GROUP_MODE: { color: "purple", icon: <TeamOutlined />, key: "chatManage.mode.GROUP_MODE" },
};

/** Who answers a session: AI reply, manual reply or group reply (spec §4). */
export function ModeBadge({ mode, compact = false }: { mode: ServiceMode; compact?: boolean }) {
  const { t } = useTranslation();
  const look = LOOK[mode];
  return (
    <Tag color={look.color} icon={look.icon} className={compact ? "pl-inbox__mode--compact" : undefined} data-testid="session-mode" data-mode={mode}>
      {t(look.key)}
    </Tag>
  );
}
