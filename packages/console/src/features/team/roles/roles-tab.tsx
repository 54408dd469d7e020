import "./roles.css";
import { EditOutlined, PlusOutlined, SafetyOutlined } from "@ant-design/icons";
import { App, Button, Flex, Form, Input, Popconfirm, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { FormDialog } from "../../../components/form-dialog";
import { invalidateSpace, useSpaceQuery } from "../../../lib/api/query";
import { ROLES, type Role, rolesEndpoints } from "../../../lib/api/roles";
import { PATHS } from "../../../lib/paths";

/** Where the role editor of a role is. */
export function roleEditPath(roleId: string): string {
  return `${PATHS.roleEdit}?roleId=${encodeURIComponent(roleId)}`;
}

interface RoleValues {
  name: string;
  description?: string;
}

/**
 * The Roles tab of the team page (spec §3 roles): system and custom roles with their members,
 * creating a role (then its editor), renaming, and deleting one no member holds.
 */
export function RolesTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const roles = useSpaceQuery({ key: ROLES, fetch: (signal) => rolesEndpoints.list({ signal }) });
  const [dialog, setDialog] = useState<{ mode: "create" } | { mode: "edit"; role: Role } | undefined>();
  const [form] = Form.useForm<RoleValues>();

  const submit = async (values: RoleValues): Promise<boolean> => {
    const body = { name: values.name.trim(), description: values.description?.trim() ?? "" };
    const result = dialog?.mode === "edit" ? await rolesEndpoints.update(dialog.role.id, body) : await rolesEndpoints.create(body);
    if (!result.ok) {
      form.setFields([{ name: result.error.field === "description" ? "description" : "name", errors: [result.error.message] }]);
      return false;
    }
    await invalidateSpace(ROLES);
    setDialog(undefined);
    if (dialog?.mode === "create") await navigate(roleEditPath(result.data.id));
    return true;
  };

  const remove = async (role: Role) => {
    const result = await rolesEndpoints.remove(role.id);
    if (!result.ok) {
      modal.error({ title: t("teamRoles.deleteRefused", { name: role.name }), content: <span data-testid="role-delete-refused">{result.error.message}</span> });
      return;
    }
    await invalidateSpace(ROLES);
  };

  return (
    <div className="pl-team-roles" data-testid="roles-tab">
      <Flex justify="space-between" align="center" gap={16} wrap className="pl-team-roles__bar">
        <Typography.Text type="secondary">{t("teamRoles.intro")}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: "create" })} data-testid="role-create">
          {t("teamRoles.create")}
        </Button>
      </Flex>
      <Table<Role>
        rowKey="id"
        loading={roles.isFetching}
        dataSource={roles.data ?? []}
        pagination={false}
        data-testid="roles-table"
        columns={[
          {
            title: t("teamRoles.columns.name"),
            dataIndex: "name",
            render: (name: string, role) => (
              <Flex gap={8} align="center" data-testid={`role-row-${role.id}`}>
                <Typography.Text strong>{name}</Typography.Text>
                <Tag color={role.system ? "blue" : "green"} variant="filled">
                  {role.system ? t("teamRoles.system") : t("teamRoles.custom")}
                </Tag>
              </Flex>
            ),
          },
          { title: t("teamRoles.columns.description"), dataIndex: "description", render: (text: string) => text || "—" },
          { title: t("teamRoles.columns.members"), dataIndex: "memberCount", width: 120 },
          {
            title: t("teamRoles.columns.actions"),
            key: "actions",
            width: 300,
            render: (_, role) => (
              <Flex gap={4} wrap>
                <Button type="link" icon={<SafetyOutlined />} onClick={() => navigate(roleEditPath(role.id))} data-testid={`role-permissions-${role.id}`}>
                  {role.system ? t("teamRoles.view") : t("teamRoles.permissions")}
                </Button>
                {role.system ? null : (
                  <>
                    <Button type="link" icon={<EditOutlined />} onClick={() => setDialog({ mode: "edit", role })} data-testid={`role-edit-${role.id}`}>
                      {t("teamRoles.edit")}
                    </Button>
                    <Popconfirm
                      title={t("teamRoles.deleteTitle")}
                      description={t("teamRoles.deleteDescription", { name: role.name })}
                      okText={t("common.delete")}
                      cancelText={t("common.cancel")}
                      okButtonProps={{ danger: true, ...({ "data-testid": "role-delete-confirm" } as Record<string, string>) }}
                      onConfirm={() => remove(role)}
                    >
                      <Button type="link" danger data-testid={`role-delete-${role.id}`}>
                        {t("common.delete")}
                      </Button>
                    </Popconfirm>
                  </>
                )}
              </Flex>
            ),
          },
        ]}
      />
      <FormDialog<RoleValues>
        open={dialog !== undefined}
        title={dialog?.mode === "edit" ? t("teamRoles.editTitle") : t("teamRoles.createTitle")}
        okText={dialog?.mode === "edit" ? t("common.save") : t("teamRoles.createAndEdit")}
        form={form}
        initialValues={dialog?.mode === "edit" ? { name: dialog.role.name, description: dialog.role.description } : {}}
        onSubmit={submit}
        onClose={() => setDialog(undefined)}
        submitTestId="role-dialog-submit"
        formTestId="role-dialog"
      >
        <Form.Item
          name="name"
          label={t("teamRoles.name")}
          rules={[
            { required: true, whitespace: true, message: t("teamRoles.nameRequired") },
            { max: 30, message: t("teamRoles.tooLong", { max: 30 }) },
          ]}
        >
          <Input maxLength={30} showCount data-testid="role-name" />
        </Form.Item>
        <Form.Item name="description" label={t("teamRoles.description")} rules={[{ max: 200, message: t("teamRoles.tooLong", { max: 200 }) }]}>
          <Input.TextArea maxLength={200} showCount rows={3} data-testid="role-description" />
        </Form.Item>
      </FormDialog>
    </div>
  );
}
