import { DeleteOutlined, PlusOutlined, SearchOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Flex, Form, Input, Modal, Popconfirm, Segmented, Select, Spin, Tag, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { AppAvatar } from "../../components/app-avatar";
import { PageHeader } from "../../components/page-header";
import { endpoints } from "../../lib/api/endpoints";
import { unwrap } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { templateEndpoints, type TemplateSummary } from "../../lib/api/templates";
import { workflowEndpoints } from "../../lib/api/workflows";
import { feedback } from "../../lib/feedback";
import { templatePath } from "./paths";
import "./templates.css";

type Kind = "all" | "app" | "workflow";

/** Whether the signed-in user administers the instance (their menus include the instance page). */
export function useIsInstanceAdmin(): boolean {
  const { privileges } = useSession();
  return Boolean(privileges?.menus.some((menu) => menu.key === "instance" && menu.visible));
}

/** /templates and /console/templates: app and workflow templates by group, with search (guests too). */
export function TemplatesPage() {
  const { t, i18n } = useTranslation();
  const inConsole = useLocation().pathname.startsWith("/console");
  const isAdmin = useIsInstanceAdmin();
  const [kind, setKind] = useState<Kind>("all");
  const [groupId, setGroupId] = useState<string>("all");
  const [keyword, setKeyword] = useState("");
  const [adding, setAdding] = useState(false);
  const groups = useQuery({ queryKey: ["templates", "groups", i18n.language], queryFn: ({ signal }) => unwrap(templateEndpoints.groups({ signal })) });
  const query = { ...(kind !== "all" ? { kind } : {}), ...(groupId !== "all" ? { groupId } : {}), ...(keyword.trim() ? { keyword: keyword.trim() } : {}) };
  const list = useQuery({
    queryKey: ["templates", "list", i18n.language, query],
    queryFn: ({ signal }) => unwrap(templateEndpoints.list(query, { signal })),
  });

  const remove = async (template: TemplateSummary) => {
    const result = await templateEndpoints.remove(template.code);
    if (!result.ok) return;
    feedback.success(t("templates.deleted", { name: template.name }));
    await list.refetch();
  };

  return (
    <div className="pl-templates" data-testid="templates-page">
      <PageHeader
        title={t("templates.title")}
        subtitle={t("templates.subtitle")}
        extra={
          isAdmin ? (
            <Button icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="template-add">
              {t("templates.add")}
            </Button>
          ) : undefined
        }
      />
      <Flex gap={12} wrap align="center" className="pl-templates__filters">
        <Segmented<Kind>
          value={kind}
          onChange={setKind}
          options={[
            { value: "all", label: t("templates.kinds.all") },
            { value: "app", label: t("templates.kinds.app") },
            { value: "workflow", label: t("templates.kinds.workflow") },
          ]}
          data-testid="templates-kind"
        />
        <Select
          value={groupId}
          onChange={setGroupId}
          style={{ minWidth: 180 }}
          options={[
            { value: "all", label: t("templates.allGroups") },
            ...(groups.data ?? []).map((group) => ({ value: group.id, label: `${group.name} (${group.count})` })),
          ]}
          data-testid="templates-group"
        />
        <Input.Search
          allowClear
          maxLength={100}
          prefix={<SearchOutlined />}
          placeholder={t("templates.search")}
          onSearch={setKeyword}
          style={{ maxWidth: 320 }}
          data-testid="templates-search"
        />
      </Flex>
      {list.isLoading ? (
        <Spin />
      ) : (list.data?.items.length ?? 0) === 0 ? (
        <Empty description={t("templates.empty")} data-testid="templates-empty" />
      ) : (
        <div className="pl-templates__grid">
          {list.data!.items.map((template) => (
            <Card key={template.code} className="pl-templates__card" hoverable data-testid={`template-card-${template.code}`}>
              <Link to={templatePath(template.code, inConsole)} className="pl-templates__link">
                <Flex gap={12} align="flex-start">
                  <AppAvatar name={template.name} src={template.avatarUrl} size={44} />
                  <div className="pl-templates__text">
                    <Typography.Text strong>{template.name}</Typography.Text>
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} className="pl-templates__description">
                      {template.description}
                    </Typography.Paragraph>
                    <Flex gap={4} wrap>
                      <Tag color={template.kind === "app" ? "blue" : "purple"}>{t(`templates.kinds.${template.kind}`)}</Tag>
                      <Tag>{template.groupName}</Tag>
                      {template.source === "custom" ? <Tag color="gold">{t("templates.custom")}</Tag> : null}
                    </Flex>
                  </div>
                </Flex>
              </Link>
              {isAdmin && template.source === "custom" ? (
                <Popconfirm title={t("templates.deleteConfirm", { name: template.name })} onConfirm={() => void remove(template)}>
                  <Button size="small" danger type="text" icon={<DeleteOutlined />} data-testid={`template-delete-${template.code}`}>
                    {t("common.delete")}
                  </Button>
                </Popconfirm>
              ) : null}
            </Card>
          ))}
        </div>
      )}
      {adding ? <AddTemplateDialog groups={groups.data ?? []} onClose={() => setAdding(false)} onAdded={() => void list.refetch()} /> : null}
    </div>
  );
}

interface AddFields {
  source: string;
  groupId: string;
  nameEn: string;
  nameZh?: string;
  descriptionEn?: string;
  descriptionZh?: string;
}

/** The administrator makes a template of an app or a workflow of their current space. */
function AddTemplateDialog({ groups, onClose, onAdded }: { groups: Array<{ id: string; name: string }>; onClose: () => void; onAdded: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddFields>();
  const [saving, setSaving] = useState(false);
  const apps = useQuery({ queryKey: ["templates", "source-apps"], queryFn: ({ signal }) => unwrap(endpoints.apps.list(1, { signal })) });
  const flows = useQuery({
    queryKey: ["templates", "source-workflows"],
    queryFn: ({ signal }) => unwrap(workflowEndpoints.list(1, 100, undefined, { signal })),
  });
  const options = [
    ...(apps.data?.items ?? [])
      .filter((app) => app.type !== "WORKFLOW")
      .map((app) => ({ value: `app:${app.id}`, label: `${t("templates.kinds.app")} · ${app.name}` })),
    ...(flows.data?.items ?? []).map((flow) => ({ value: `workflow:${flow.id}`, label: `${t("templates.kinds.workflow")} · ${flow.name}` })),
  ];
  const submit = async (values: AddFields) => {
    setSaving(true);
    const [kind, id] = values.source.split(":") as ["app" | "workflow", string];
    const result = await templateEndpoints.add({
      ...(kind === "app" ? { appId: id } : { workflowId: id }),
      groupId: values.groupId,
      nameEn: values.nameEn.trim(),
      ...(values.nameZh?.trim() ? { nameZh: values.nameZh.trim() } : {}),
      ...(values.descriptionEn?.trim() ? { descriptionEn: values.descriptionEn.trim() } : {}),
      ...(values.descriptionZh?.trim() ? { descriptionZh: values.descriptionZh.trim() } : {}),
    });
    setSaving(false);
    if (!result.ok) return;
    feedback.success(t("templates.added", { name: result.data.name }));
    onAdded();
    onClose();
  };
  return (
    <Modal open title={t("templates.addTitle")} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving} okText={t("templates.addSubmit")}>
      <Form<AddFields> form={form} layout="vertical" onFinish={(values) => void submit(values)} data-testid="template-add-form">
        <Form.Item name="source" label={t("templates.fields.source")} rules={[{ required: true, message: t("templates.fields.sourceRequired") }]}>
          <Select showSearch optionFilterProp="label" options={options} loading={apps.isLoading || flows.isLoading} />
        </Form.Item>
        <Form.Item name="groupId" label={t("templates.fields.group")} rules={[{ required: true, message: t("templates.fields.groupRequired") }]}>
          <Select options={groups.map((group) => ({ value: group.id, label: group.name }))} />
        </Form.Item>
        <Form.Item name="nameEn" label={t("templates.fields.nameEn")} rules={[{ required: true, max: 50, message: t("templates.fields.nameRule") }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="nameZh" label={t("templates.fields.nameZh")} rules={[{ max: 50, message: t("templates.fields.nameRule") }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="descriptionEn" label={t("templates.fields.descriptionEn")}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
        </Form.Item>
        <Form.Item name="descriptionZh" label={t("templates.fields.descriptionZh")}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
