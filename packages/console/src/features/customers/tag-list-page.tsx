import { EditOutlined, PlusOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, Flex, Form, Input, Popconfirm, Select, Table, type TableColumnType, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../components/form-dialog";
import { CUSTOMERS, type CustomerTagDef, customersEndpoints, TAG_GROUPS, TAGS, type TagGroup } from "../../lib/api/customers";
import { invalidateSpace, useSpaceQuery } from "../../lib/api/query";
import { useGrant } from "../../lib/api/session";
import { formatDateTime } from "../../lib/format";

type SyncTarget = CustomerTagDef["syncTarget"];

interface TagValues {
  name: string;
  groupId: string;
  description?: string;
  syncTarget: SyncTarget;
}

/**
 * Tag management of /console/customManage/tagList (spec §3 Tag, Tag group): groups and their
 * tags with name, description, group, sync target, creator and create time.
 */
export function TagListPage() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  // Creating, changing and deleting groups and tags need customers.edit; viewers only read them.
  const canEdit = useGrant("customers.edit");
  const groups = useSpaceQuery({ key: TAG_GROUPS, fetch: (signal) => customersEndpoints.groups({ signal }) });
  const tags = useSpaceQuery({ key: TAGS, fetch: (signal) => customersEndpoints.tags({ signal }) });
  const [groupDialog, setGroupDialog] = useState<{ group?: TagGroup } | undefined>();
  const [tagDialog, setTagDialog] = useState<{ tag?: CustomerTagDef; groupId?: string } | undefined>();
  const [groupFilter, setGroupFilter] = useState<string>();
  const [groupForm] = Form.useForm<{ name: string }>();
  const [tagForm] = Form.useForm<TagValues>();

  const refresh = () => invalidateSpace(TAG_GROUPS, TAGS, CUSTOMERS);
  const syncLabel = (target: SyncTarget) => t(`tags.sync.${target}`);
  /** Synced (with when), failed (with the platform's reason) or not synced (no connection yet). */
  const syncState = (tag: CustomerTagDef) => {
    const label = t(`customerSync.state.${tag.syncState}`);
    const detail =
      tag.syncState === "failed"
        ? tag.syncError
        : tag.syncState === "synced" && tag.syncedAt
          ? t("customerSync.syncedAt", { time: formatDateTime(tag.syncedAt, i18n.language) })
          : t("customerSync.notSyncedHint");
    const color = tag.syncState === "synced" ? "green" : tag.syncState === "failed" ? "red" : "default";
    return (
      <Tooltip title={detail}>
        <Tag color={color} data-testid={`tag-sync-state-${tag.id}`}>
          {label}
        </Tag>
      </Tooltip>
    );
  };

  const saveGroup = async (values: { name: string }): Promise<boolean> => {
    const result = groupDialog?.group
      ? await customersEndpoints.updateGroup(groupDialog.group.id, values.name.trim())
      : await customersEndpoints.createGroup(values.name.trim());
    if (!result.ok) {
      groupForm.setFields([{ name: "name", errors: [result.error.message] }]);
      return false;
    }
    setGroupDialog(undefined);
    await refresh();
    return true;
  };

  const removeGroup = async (group: TagGroup) => {
    const result = await customersEndpoints.removeGroup(group.id);
    if (!result.ok) {
      modal.error({
        title: t("tags.groupDeleteRefused", { name: group.name }),
        content: <span data-testid="tag-group-delete-refused">{result.error.message}</span>,
      });
      return;
    }
    if (groupFilter === group.id) setGroupFilter(undefined);
    await refresh();
  };

  const saveTag = async (values: TagValues): Promise<boolean> => {
    const body = { name: values.name.trim(), groupId: values.groupId, description: values.description?.trim() ?? "", syncTarget: values.syncTarget };
    const result = tagDialog?.tag ? await customersEndpoints.updateTag(tagDialog.tag.id, body) : await customersEndpoints.createTag(body);
    if (!result.ok) {
      const field = result.error.field === "groupId" || result.error.field === "description" ? result.error.field : "name";
      tagForm.setFields([{ name: field, errors: [result.error.message] }]);
      // A platform refusal is recorded on the tag: the list shows it as failed.
      void refresh();
      return false;
    }
    setTagDialog(undefined);
    await refresh();
    return true;
  };

  const removeTag = async (tag: CustomerTagDef) => {
    // Refused or not, the list is read again: a refusal by the platform shows on the tag's sync state.
    await customersEndpoints.removeTag(tag.id);
    await refresh();
  };

  const shown = (tags.data ?? []).filter((tag) => !groupFilter || tag.groupId === groupFilter);
  const groupOptions = (groups.data ?? []).map((group) => ({ value: group.id, label: group.name }));

  const actionsColumn: TableColumnType<CustomerTagDef> = {
    title: t("tags.columns.actions"),
    key: "actions",
    render: (_, tag) => (
      <Flex gap={4}>
        <Button type="link" icon={<EditOutlined />} onClick={() => setTagDialog({ tag })} data-testid={`tag-edit-${tag.id}`}>
          {t("tags.edit")}
        </Button>
        <Popconfirm
          title={t("tags.deleteTagTitle")}
          description={t("tags.deleteTagDescription", { name: tag.name })}
          okText={t("common.delete")}
          cancelText={t("common.cancel")}
          onConfirm={() => removeTag(tag)}
        >
          <Button type="link" danger data-testid={`tag-delete-${tag.id}`}>
            {t("common.delete")}
          </Button>
        </Popconfirm>
      </Flex>
    ),
  };

  return (
    <Flex gap={16} align="start" wrap className="pl-tags" data-testid="tag-list">
      <Card
        size="small"
        style={{ width: 280 }}
        title={t("tags.groups")}
        extra={
          canEdit ? (
            <Button size="small" icon={<PlusOutlined />} onClick={() => setGroupDialog({})} data-testid="tag-group-create">
              {t("tags.createGroup")}
            </Button>
          ) : null
        }
      >
        {(groups.data ?? []).length === 0 ? <Empty description={t("tags.noGroups")} /> : null}
        <Flex vertical gap={4}>
          {(groups.data ?? []).map((group) => (
            <Flex key={group.id} align="center" gap={4} data-testid={`tag-group-${group.id}`}>
              <Button
                type={groupFilter === group.id ? "primary" : "text"}
                style={{ flex: 1, justifyContent: "flex-start" }}
                onClick={() => setGroupFilter(groupFilter === group.id ? undefined : group.id)}
              >
                {group.name} ({group.tagCount})
              </Button>
              {canEdit ? (
                <>
                  <Button type="text" size="small" icon={<EditOutlined />} aria-label={t("tags.editGroup")} onClick={() => setGroupDialog({ group })} />
                  <Popconfirm
                    title={t("tags.deleteGroupTitle")}
                    description={t("tags.deleteGroupDescription", { name: group.name })}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    onConfirm={() => removeGroup(group)}
                  >
                    <Button type="text" size="small" danger data-testid={`tag-group-delete-${group.id}`}>
                      {t("common.delete")}
                    </Button>
                  </Popconfirm>
                </>
              ) : null}
            </Flex>
          ))}
        </Flex>
      </Card>
      <div style={{ flex: 1, minWidth: 480 }}>
        <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary">{t("tags.intro")}</Typography.Text>
          {canEdit ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={(groups.data ?? []).length === 0}
              onClick={() => setTagDialog({ ...(groupFilter ? { groupId: groupFilter } : {}) })}
              data-testid="tag-create"
            >
              {t("tags.createTag")}
            </Button>
          ) : null}
        </Flex>
        <Table<CustomerTagDef>
          rowKey="id"
          size="middle"
          loading={tags.isFetching}
          dataSource={shown}
          pagination={false}
          data-testid="tag-table"
          locale={{ emptyText: <Empty description={t("tags.noTags")} /> }}
          columns={[
            { title: t("tags.columns.name"), dataIndex: "name", render: (name: string, tag) => <span data-testid={`tag-row-${tag.id}`}>{name}</span> },
            { title: t("tags.columns.group"), dataIndex: "groupName" },
            { title: t("tags.columns.description"), dataIndex: "description", render: (value: string) => value || "—" },
            {
              title: t("tags.columns.sync"),
              dataIndex: "syncTarget",
              render: (target: SyncTarget, tag) =>
                target === "none" ? (
                  syncLabel(target)
                ) : (
                  <Flex gap={4} wrap>
                    <Tag color="blue">{syncLabel(target)}</Tag>
                    {syncState(tag)}
                  </Flex>
                ),
            },
            { title: t("tags.columns.customers"), dataIndex: "customerCount", width: 100 },
            { title: t("tags.columns.creator"), dataIndex: "creatorName", render: (value: string | null) => value || "—" },
            { title: t("tags.columns.createdAt"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
            ...(canEdit ? [actionsColumn] : []),
          ]}
        />
      </div>

      <FormDialog<{ name: string }>
        open={groupDialog !== undefined}
        title={groupDialog?.group ? t("tags.editGroup") : t("tags.createGroup")}
        okText={t("common.save")}
        form={groupForm}
        initialValues={groupDialog?.group ? { name: groupDialog.group.name } : {}}
        onSubmit={saveGroup}
        onClose={() => setGroupDialog(undefined)}
        submitTestId="tag-group-submit"
        formTestId="tag-group-dialog"
      >
        <Form.Item name="name" label={t("tags.groupName")} rules={[{ required: true, whitespace: true, message: t("tags.nameRequired") }]}>
          <Input maxLength={50} showCount data-testid="tag-group-name" />
        </Form.Item>
      </FormDialog>

      <FormDialog<TagValues>
        open={tagDialog !== undefined}
        title={tagDialog?.tag ? t("tags.editTag") : t("tags.createTag")}
        okText={t("common.save")}
        form={tagForm}
        initialValues={
          tagDialog?.tag
            ? { name: tagDialog.tag.name, groupId: tagDialog.tag.groupId, description: tagDialog.tag.description, syncTarget: tagDialog.tag.syncTarget }
            : { syncTarget: "none", ...(tagDialog?.groupId ? { groupId: tagDialog.groupId } : {}) }
        }
        onSubmit={saveTag}
        onClose={() => setTagDialog(undefined)}
        submitTestId="tag-submit"
        formTestId="tag-dialog"
      >
        <Form.Item name="name" label={t("tags.columns.name")} rules={[{ required: true, whitespace: true, message: t("tags.nameRequired") }]}>
          <Input maxLength={50} showCount data-testid="tag-name" />
        </Form.Item>
        <Form.Item name="groupId" label={t("tags.columns.group")} rules={[{ required: true, message: t("tags.groupRequired") }]}>
          <Select options={groupOptions} data-testid="tag-group-select" />
        </Form.Item>
        <Form.Item name="description" label={t("tags.columns.description")}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
        <Form.Item name="syncTarget" label={t("tags.columns.sync")}>
          <Select
            data-testid="tag-sync-select"
            options={(["none", "wecom", "wechat"] as const).map((target) => ({ value: target, label: syncLabel(target) }))}
          />
        </Form.Item>
      </FormDialog>
    </Flex>
  );
}
