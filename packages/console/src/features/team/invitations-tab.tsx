import { CopyOutlined, LinkOutlined, PlusOutlined, StopOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Button, Flex, Form, InputNumber, Popconfirm, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../components/api-key-reveal-modal";
import { EmptyState } from "../../components/empty-state";
import { FormDialog } from "../../components/form-dialog";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { useRoleOptions } from "./roles";

type Invitation = components["schemas"]["TeamInvitation"];
interface CreateFields {
  roleId: string;
  expiresInDays: number;
  maxUses?: number | null;
}

const INVITATIONS_KEY = ["team-invitations"];
const EXPIRY_CHOICES = [1, 7, 30] as const;
const STATUS_COLORS: Record<Invitation["status"], string> = { active: "green", expired: "default", revoked: "red", used_up: "orange" };

/** The Invitations tab: make a link with a role and an expiry, copy it, see each link's status, revoke. */
export function InvitationsTab() {
  const { t, i18n } = useTranslation();
  const roleOptions = useRoleOptions();
  const invitations = useSpaceQuery({ key: INVITATIONS_KEY, fetch: (signal) => endpoints.team.invitations({ signal }) });
  const [creating, setCreating] = useState(false);

  const copy = async (invitation: Invitation) => {
    if (await copyText(invitation.link)) feedback.success(t("teamMembers.invitations.copied"));
    else feedback.error(t("teamMembers.invitations.copyFailed"));
  };

  const revoke = async (invitation: Invitation) => {
    const result = await endpoints.team.revokeInvitation(invitation.id);
    if (!result.ok) return;
    feedback.success(t("teamMembers.invitations.revoked"));
    await invalidateSpace(INVITATIONS_KEY);
  };

  return (
    <Flex vertical gap={16} data-testid="team-invitations-tab">
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Text type="secondary">{t("teamMembers.invitations.intro")}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="team-invitation-create">
          {t("teamMembers.invitations.create")}
        </Button>
      </Flex>
      <Table<Invitation>
        rowKey="id"
        loading={invitations.isFetching}
        dataSource={invitations.data ?? []}
        scroll={{ x: "max-content" }}
        pagination={false}
        data-testid="team-invitations-table"
        locale={{
          emptyText: invitations.isError ? (
            <EmptyState title={t("teamMembers.invitations.loadFailed")} />
          ) : (
            <EmptyState icon={<LinkOutlined className="pl-empty__glyph" />} title={t("teamMembers.invitations.empty")} />
          ),
        }}
        columns={[
          {
            key: "link",
            title: t("teamMembers.invitations.columns.link"),
            render: (_value, invitation) => (
              <Typography.Text code ellipsis style={{ maxWidth: 280 }} data-testid={`team-invitation-link-${invitation.id}`}>
                {invitation.link}
              </Typography.Text>
            ),
          },
          { key: "role", title: t("teamMembers.invitations.columns.role"), dataIndex: "roleName" },
          {
            key: "status",
            title: t("teamMembers.invitations.columns.status"),
            render: (_value, invitation) => (
              <Tag color={STATUS_COLORS[invitation.status]} data-testid={`team-invitation-status-${invitation.id}`}>
                {t(`teamMembers.invitations.status.${invitation.status}`)}
              </Tag>
            ),
          },
          {
            key: "uses",
            title: t("teamMembers.invitations.columns.uses"),
            render: (_value, invitation) => (invitation.maxUses === null ? `${invitation.uses}` : `${invitation.uses} / ${invitation.maxUses}`),
          },
          {
            key: "expiresAt",
            title: t("teamMembers.invitations.columns.expiresAt"),
            render: (_value, invitation) => formatDateTime(invitation.expiresAt, i18n.language),
          },
          {
            key: "actions",
            title: t("teamMembers.invitations.columns.actions"),
            align: "right",
            render: (_value, invitation) => (
              <Flex gap={4} justify="end">
                <Button
                  type="text"
                  icon={<CopyOutlined />}
                  disabled={invitation.status !== "active"}
                  onClick={() => void copy(invitation)}
                  data-testid={`team-invitation-copy-${invitation.id}`}
                >
                  {t("teamMembers.invitations.copy")}
                </Button>
                {invitation.status === "active" ? (
                  <Popconfirm
                    title={t("teamMembers.invitations.revokeTitle")}
                    okText={t("teamMembers.invitations.revoke")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => revoke(invitation)}
                  >
                    <Button type="text" danger icon={<StopOutlined />} data-testid={`team-invitation-revoke-${invitation.id}`}>
                      {t("teamMembers.invitations.revoke")}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Flex>
            ),
          },
        ]}
      />
      <FormDialog<CreateFields>
        open={creating}
        title={t("teamMembers.invitations.createTitle")}
        okText={t("teamMembers.invitations.createSubmit")}
        submitTestId="team-invitation-submit"
        initialValues={{ roleId: "viewer", expiresInDays: 7 }}
        onClose={() => setCreating(false)}
        onSubmit={async (values) => {
          const result = await endpoints.team.createInvitation({
            roleId: values.roleId,
            expiresInDays: values.expiresInDays,
            ...(values.maxUses ? { maxUses: values.maxUses } : {}),
          });
          if (!result.ok) return false;
          setCreating(false);
          await invalidateSpace(INVITATIONS_KEY);
          if (await copyText(result.data.link)) feedback.success(t("teamMembers.invitations.createdCopied"));
          else feedback.success(t("teamMembers.invitations.created"));
          return true;
        }}
      >
        <Form.Item name="roleId" label={t("teamMembers.invitations.role")} rules={[{ required: true }]}>
          <Select options={roleOptions} data-testid="team-invitation-role" />
        </Form.Item>
        <Form.Item name="expiresInDays" label={t("teamMembers.invitations.expiry")}>
          <Select
            options={EXPIRY_CHOICES.map((days) => ({ value: days, label: t(`teamMembers.invitations.expiryChoices.d${days}`) }))}
            data-testid="team-invitation-expiry"
          />
        </Form.Item>
        <Form.Item name="maxUses" label={t("teamMembers.invitations.maxUses")} extra={t("teamMembers.invitations.maxUsesHint")}>
          <InputNumber min={1} max={1000} precision={0} style={{ width: "100%" }} data-testid="team-invitation-max-uses" />
        </Form.Item>
      </FormDialog>
    </Flex>
  );
}
