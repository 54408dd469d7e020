import { LogoutOutlined, SwapOutlined, TeamOutlined, UserDeleteOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { App, Button, Flex, Form, Input, Popconfirm, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState } from "../../components/empty-state";
import { FormDialog } from "../../components/form-dialog";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { enterSpace } from "./enter-space";
import { useRoleOptions } from "./roles";

type Member = components["schemas"]["TeamMember"];

/** Cache key of the members list (below the space id). */
export const TEAM_MEMBERS_KEY = ["team-members"];
const PAGE_SIZE = 20;

/** The Members tab: every member with their role (changeable), contact, credits and joining time; remove, exit, transfer. */
export function MembersTab() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { user } = useSession();
  const [keyword, setKeyword] = useState("");
  const [pageNo, setPageNo] = useState(1);
  const [transferring, setTransferring] = useState(false);
  const members = useSpaceQuery({
    key: [...TEAM_MEMBERS_KEY, keyword, pageNo],
    fetch: (signal) => endpoints.team.members({ ...(keyword ? { keyword } : {}), pageNo, pageSize: PAGE_SIZE }, { signal }),
    keepPreviousPage: true,
  });
  const owner = user?.companyOwner === true;
  const items = members.data?.items ?? [];
  const options = useRoleOptions();

  const changeRole = async (member: Member, roleId: string) => {
    const result = await endpoints.team.setRole(member.userId, { roleId });
    if (!result.ok) return;
    feedback.success(t("teamMembers.members.roleChanged", { name: member.name, role: result.data.roleName }));
    await invalidateSpace(TEAM_MEMBERS_KEY);
  };

  const remove = async (member: Member) => {
    const result = await endpoints.team.remove(member.userId);
    if (!result.ok) return;
    feedback.success(t("teamMembers.members.removed", { name: member.name }));
    await invalidateSpace(TEAM_MEMBERS_KEY);
  };

  const exit = () =>
    modal.confirm({
      title: t("teamMembers.members.exitTitle", { company: user?.companyName ?? "" }),
      content: t("teamMembers.members.exitContent"),
      okText: t("teamMembers.members.exit"),
      okButtonProps: { danger: true, ...({ "data-testid": "team-exit-confirm" } as Record<string, string>) },
      cancelText: t("common.cancel"),
      onOk: async () => {
        const previous = user?.spaceId;
        const result = await endpoints.team.exit();
        if (!result.ok) return;
        await navigate(PATHS.agents);
        await enterSpace(result.data, previous);
        feedback.success(t("teamMembers.members.exited"));
      },
    });

  return (
    <Flex vertical gap={16} data-testid="team-members-tab">
      <Flex gap={12} wrap justify="space-between">
        <Input.Search
          allowClear
          placeholder={t("teamMembers.members.search")}
          aria-label={t("teamMembers.members.search")}
          onSearch={(value) => {
            setKeyword(value.trim());
            setPageNo(1);
          }}
          style={{ maxWidth: 320 }}
          data-testid="team-members-search"
        />
        <Flex gap={8}>
          {owner ? (
            <Button icon={<SwapOutlined />} onClick={() => setTransferring(true)} data-testid="team-transfer">
              {t("teamMembers.members.transfer")}
            </Button>
          ) : (
            <Button danger icon={<LogoutOutlined />} onClick={exit} data-testid="team-exit">
              {t("teamMembers.members.exit")}
            </Button>
          )}
        </Flex>
      </Flex>
      <Table<Member>
        rowKey="userId"
        loading={members.isFetching}
        dataSource={items}
        scroll={{ x: "max-content" }}
        data-testid="team-members-table"
        locale={{
          emptyText: members.isError ? (
            <EmptyState title={t("teamMembers.members.loadFailed")} data-testid="team-members-failed" />
          ) : (
            <EmptyState icon={<TeamOutlined className="pl-empty__glyph" />} title={t("teamMembers.members.empty")} />
          ),
        }}
        pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: members.data?.total ?? 0, hideOnSinglePage: true, onChange: setPageNo }}
        columns={[
          {
            key: "name",
            title: t("teamMembers.members.columns.name"),
            render: (_value, member) => (
              <span data-testid={`team-member-${member.email ?? member.userId}`}>
                {member.name} {member.userId === user?.id ? <Tag>{t("teamMembers.members.you")}</Tag> : null}
              </span>
            ),
          },
          {
            key: "role",
            title: t("teamMembers.members.columns.role"),
            render: (_value, member) =>
              member.owner ? (
                <Tag color="gold">{member.roleName}</Tag>
              ) : (
                <Select
                  value={member.roleId}
                  options={options.some((option) => option.value === member.roleId) ? options : [...options, { value: member.roleId, label: member.roleName }]}
                  disabled={member.userId === user?.id}
                  onChange={(roleId) => void changeRole(member, roleId)}
                  style={{ minWidth: 140 }}
                  aria-label={t("teamMembers.members.columns.role")}
                  data-testid={`team-member-role-${member.userId}`}
                />
              ),
          },
          { key: "phone", title: t("teamMembers.members.columns.phone"), render: (_value, member) => member.phone ?? "-" },
          { key: "email", title: t("teamMembers.members.columns.email"), render: (_value, member) => member.email ?? "-" },
          {
            key: "credits",
            title: t("teamMembers.members.columns.credits"),
            render: (_value, member) => (
              <Typography.Text>{t("teamMembers.members.creditsValue", { allocated: member.creditAllocation, spent: member.creditsSpent })}</Typography.Text>
            ),
          },
          { key: "joinedAt", title: t("teamMembers.members.columns.joinedAt"), render: (_value, member) => formatDateTime(member.joinedAt, i18n.language) },
          {
            key: "actions",
            title: t("teamMembers.members.columns.actions"),
            align: "right",
            render: (_value, member) =>
              member.owner || member.userId === user?.id ? null : (
                <Popconfirm
                  title={t("teamMembers.members.removeTitle")}
                  description={t("teamMembers.members.removeDescription", { name: member.name })}
                  okText={t("teamMembers.members.remove")}
                  cancelText={t("common.cancel")}
                  okButtonProps={{ danger: true, ...({ "data-testid": `team-member-remove-confirm-${member.userId}` } as Record<string, string>) }}
                  onConfirm={() => remove(member)}
                >
                  <Button type="text" danger icon={<UserDeleteOutlined />} data-testid={`team-member-remove-${member.userId}`}>
                    {t("teamMembers.members.remove")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <FormDialog<{ userId: string }>
        open={transferring}
        title={t("teamMembers.members.transferTitle")}
        okText={t("teamMembers.members.transferSubmit")}
        submitTestId="team-transfer-submit"
        onClose={() => setTransferring(false)}
        onSubmit={async ({ userId }) => {
          const result = await endpoints.team.transfer({ userId });
          if (!result.ok) return false;
          feedback.success(t("teamMembers.members.transferred", { name: result.data.name }));
          setTransferring(false);
          const me = await endpoints.me.get();
          if (me.ok) await enterSpace(me.data, me.data.spaceId);
          await invalidateSpace(TEAM_MEMBERS_KEY);
          return true;
        }}
      >
        <Typography.Paragraph type="secondary">{t("teamMembers.members.transferHint")}</Typography.Paragraph>
        <Form.Item name="userId" label={t("teamMembers.members.transferTo")} rules={[{ required: true, message: t("teamMembers.members.transferRequired") }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={items
              .filter((member) => !member.owner)
              .map((member) => ({ value: member.userId, label: `${member.name} (${member.email ?? member.phone ?? ""})` }))}
            data-testid="team-transfer-member"
          />
        </Form.Item>
      </FormDialog>
    </Flex>
  );
}
