import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Flex, Form, Input, Popconfirm, Select, Table, Tabs, Tag, Typography } from "antd";
import { type HTMLAttributes, useState } from "react";
import { useTranslation } from "react-i18next";
import { ReplyContent } from "../../components/chat/reply-content";
import { FormDialog } from "../../components/form-dialog";
import { type AnnouncementAudience, announcementEndpoints, type InstanceAnnouncement } from "../../lib/api/announcements";
import { useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { MEMBER_GRADES } from "../../lib/api/types";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PLAN_LABEL_KEYS } from "../account/plan-labels";

const PAGE_SIZE = 20;
const TITLE_MAX = 100;
const BODY_MAX = 20_000;

interface AnnouncementValues {
  title: string;
  body: string;
  audience: AnnouncementAudience;
  /** `datetime-local` input value (the browser's time zone); empty: now. */
  publishAt?: string;
}

/** An ISO timestamp as a `datetime-local` value in the browser's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The Markdown body with a preview rendered as users will see it. */
function BodyEditor({ value, onChange }: { value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Tabs
      size="small"
      items={[
        {
          key: "write",
          label: <span data-testid="announcement-form-write">{t("announcements.admin.write")}</span>,
          children: (
            <Input.TextArea
              value={value}
              onChange={(event) => onChange?.(event.target.value)}
              autoSize={{ minRows: 6, maxRows: 16 }}
              maxLength={BODY_MAX}
              showCount
              placeholder={t("announcements.admin.bodyPlaceholder")}
              data-testid="announcement-form-body"
            />
          ),
        },
        {
          key: "preview",
          label: <span data-testid="announcement-form-preview">{t("announcements.admin.preview")}</span>,
          children: (
            <div data-testid="announcement-preview">
              {value?.trim() ? <ReplyContent text={value} /> : <Typography.Text type="secondary">{t("announcements.admin.previewEmpty")}</Typography.Text>}
            </div>
          ),
        },
      ]}
    />
  );
}

/** The instance administrator's announcements: write (Markdown with preview, audience, optional time), edit, delete. */
export function AnnouncementsAdminTab() {
  const { t, i18n } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const [editing, setEditing] = useState<InstanceAnnouncement | "new">();
  const list = useSpaceQuery({
    key: ["instance", "announcements", pageNo],
    keepPreviousPage: true,
    fetch: (signal) => announcementEndpoints.all(pageNo, PAGE_SIZE, { signal }),
  });
  const remove = useSpaceMutation({
    run: (id: string) => announcementEndpoints.remove(id),
    invalidates: [["instance", "announcements"], ["announcements"]],
    onSuccess: () => feedback.success(t("announcements.admin.deleted")),
  });
  const audienceLabel = (audience: AnnouncementAudience) => (audience === "everyone" ? t("announcements.audience.everyone") : t(PLAN_LABEL_KEYS[audience]));
  const audienceOptions = [
    { value: "everyone", label: t("announcements.audience.everyone") },
    ...MEMBER_GRADES.map((grade) => ({ value: grade, label: t(PLAN_LABEL_KEYS[grade]) })),
  ];

  const submit = async (values: AnnouncementValues) => {
    const body = {
      title: values.title,
      body: values.body ?? "",
      audience: values.audience,
      ...(values.publishAt ? { publishAt: new Date(values.publishAt).toISOString() } : {}),
    };
    const answer = editing === "new" || editing === undefined ? await announcementEndpoints.create(body) : await announcementEndpoints.update(editing.id, body);
    if (!answer.ok) return false;
    feedback.success(t(editing === "new" ? "announcements.admin.published" : "announcements.admin.saved"));
    setEditing(undefined);
    await list.refetch();
    return true;
  };

  return (
    <Flex vertical gap={12} data-testid="instance-announcements">
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary">{t("announcements.admin.hint")}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="announcement-new">
          {t("announcements.admin.new")}
        </Button>
      </Flex>
      <Table<InstanceAnnouncement>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNo, showSizeChanger: false }}
        onRow={(row) => ({ "data-testid": `instance-announcement-${row.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t("announcements.admin.columns.title"), dataIndex: "title", key: "title" },
          { title: t("announcements.admin.columns.audience"), key: "audience", render: (_, row) => audienceLabel(row.audience) },
          {
            title: t("announcements.admin.columns.publishAt"),
            key: "publishAt",
            render: (_, row) => (
              <Flex gap={6} align="center">
                {formatDateTime(row.publishAt, i18n.language)}
                {row.published ? null : <Tag color="blue">{t("announcements.admin.scheduled")}</Tag>}
              </Flex>
            ),
          },
          { title: t("announcements.admin.columns.reads"), dataIndex: "readCount", key: "reads" },
          {
            title: t("announcements.admin.columns.actions"),
            key: "actions",
            render: (_, row) => (
              <Flex gap={4}>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`announcement-edit-${row.id}`}>
                  {t("announcements.admin.edit")}
                </Button>
                <Popconfirm title={t("announcements.admin.confirmDelete")} onConfirm={() => remove.mutate(row.id)} okButtonProps={{ danger: true }}>
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`announcement-delete-${row.id}`}>
                    {t("announcements.admin.delete")}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      <FormDialog<AnnouncementValues>
        open={editing !== undefined}
        title={t(editing === "new" ? "announcements.admin.new" : "announcements.admin.edit")}
        okText={t(editing === "new" ? "announcements.admin.publish" : "announcements.admin.save")}
        initialValues={
          editing === "new" || editing === undefined
            ? { title: "", body: "", audience: "everyone" }
            : { title: editing.title, body: editing.body, audience: editing.audience, publishAt: toLocalInput(editing.publishAt) }
        }
        onSubmit={submit}
        onClose={() => setEditing(undefined)}
        submitTestId="announcement-form-submit"
        formTestId="announcement-form"
      >
        <Form.Item
          name="title"
          label={t("announcements.admin.fields.title")}
          rules={[{ required: true, whitespace: true, message: t("announcements.admin.titleRequired") }]}
        >
          <Input maxLength={TITLE_MAX} showCount data-testid="announcement-form-title" />
        </Form.Item>
        <Form.Item name="audience" label={t("announcements.admin.fields.audience")}>
          <Select options={audienceOptions} data-testid="announcement-form-audience" />
        </Form.Item>
        <Form.Item name="publishAt" label={t("announcements.admin.fields.publishAt")} extra={t("announcements.admin.publishAtHint")}>
          <Input type="datetime-local" data-testid="announcement-form-publish-at" />
        </Form.Item>
        <Form.Item name="body" label={t("announcements.admin.fields.body")}>
          <BodyEditor />
        </Form.Item>
      </FormDialog>
    </Flex>
  );
}
