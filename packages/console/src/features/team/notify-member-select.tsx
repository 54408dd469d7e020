import { Select } from "antd";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";

/** Props of {@link NotifyMemberSelect}; a Form.Item passes value and onChange. */
export interface NotifyMemberSelectProps {
  value?: string[];
  onChange?: (value: string[]) => void;
}

/** Picks the members a handover notice goes to (getCompanyNotifyMember). */
export function NotifyMemberSelect({ value, onChange }: NotifyMemberSelectProps) {
  const { t } = useTranslation();
  const members = useSpaceQuery({ key: ["team-notify-members"], fetch: (signal) => endpoints.team.notifyMembers({ signal, silent: true }), staleTime: 60_000 });
  return (
    <Select
      mode="multiple"
      allowClear
      value={value ?? []}
      onChange={onChange}
      loading={members.isFetching}
      optionFilterProp="label"
      placeholder={t("teamMembers.notify.placeholder")}
      options={(members.data ?? []).map((member) => ({
        value: member.userId,
        label: `${member.name} · ${member.roleName}${member.email ? ` · ${member.email}` : member.phone ? ` · ${member.phone}` : ""}`,
      }))}
      data-testid="app-notify-members"
    />
  );
}
