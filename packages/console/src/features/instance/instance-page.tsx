import { EditOutlined } from "@ant-design/icons";
import { StoreAdminTab } from "../store/store-admin-tab";
import type { components } from "@parley/sdk";
import { Button, Flex, Form, Input, InputNumber, Modal, Result, Select, Table, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import type { ApiResult } from "../../lib/api/request";
import { useSpaceQuery } from "../../lib/api/query";
import { useTranslation } from "react-i18next";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { sessionStore, useSession } from "../../lib/api/session";
import { refreshPrivileges } from "../../app/startup";
import { MEMBER_GRADES, type MemberGrade } from "../../lib/api/types";
import { PageHeader } from "../../components/page-header";
import { PageLoader } from "../../components/page-loader";
import { PLAN_LABEL_KEYS } from "../account/plan-labels";
import { CashOutReviewTab, CreditAdjustTab } from "../benefits/instance-tabs";
import { InstanceOrdersTab } from "../payments/instance-orders-tab";
import { AnnouncementsAdminTab } from "../announcements/announcements-admin-tab";
import { PlansTab } from "./plans-tab";
import { ContactRequestsTab } from "../templates/contact-requests-tab";
import "./instance.css";

type InstanceUser = components["schemas"]["InstanceUser"];
type InstanceSpace = components["schemas"]["InstanceSpace"];

const PAGE_SIZE = 20;
const QUOTA_KEYS = ["clientManage", "customerManage", "memberNumber"] as const;
/** The plan catalogue's other quotas a Custom space can have set (labels from the quota namespace). */
const PLAN_ONLY_QUOTA_KEYS = ["apps", "workflows", "knowledgeTokens", "knowledgeEntries", "databaseRows", "customPlugins"] as const;
const EDITABLE_QUOTA_KEYS = [...QUOTA_KEYS, ...PLAN_ONLY_QUOTA_KEYS] as const;
const LARGE_QUOTA_KEYS: readonly string[] = ["knowledgeTokens", "databaseRows"];

/** After a change to the space the administrator is working in, the user and the menu follow at once. */
async function refreshIfCurrent(spaceId: string): Promise<void> {
  if (sessionStore.get().user?.spaceId !== spaceId) return;
  const me = await endpoints.me.get({ silent: true });
  if (me.ok) sessionStore.setUser(me.data);
  await refreshPrivileges();
}

type ListQuery = { pageNo: number; pageSize: number; keyword?: string };
const NO_ROWS = { items: [], total: 0 };

/** A page of an instance list, with its keyword and page number. */
function usePagedList<T>(name: string, load: (query: ListQuery, signal: AbortSignal) => Promise<ApiResult<{ items: T[]; total: number }>>) {
  const [keyword, setKeyword] = useState("");
  const [pageNo, setPageNo] = useState(1);
  const query = useSpaceQuery({
    key: ["instance", name, { pageNo, keyword }],
    keepPreviousPage: true,
    fetch: (signal) => load({ pageNo, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) }, signal),
  });
  const search = (value: string) => {
    setPageNo(1);
    setKeyword(value.trim());
  };
  const data: { items: T[]; total: number } = query.data ?? NO_ROWS;
  return { data, loading: query.isFetching, pageNo, setPageNo, search, reload: () => query.refetch() };
}

const loadUsers = (query: ListQuery, signal: AbortSignal) => endpoints.instance.users(query, { signal });
const loadSpaces = (query: ListQuery, signal: AbortSignal) => endpoints.instance.spaces(query, { signal });

function GradeSelect(props: { value: MemberGrade; onChange: (grade: MemberGrade) => void; disabled?: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Select<MemberGrade>
      value={props.value}
      onChange={props.onChange}
      disabled={props.disabled}
      style={{ minWidth: 140 }}
      options={MEMBER_GRADES.map((grade) => ({ value: grade, label: t(PLAN_LABEL_KEYS[grade]) }))}
      data-testid={props.testId}
    />
  );
}

function UsersTab() {
  const { t } = useTranslation();
  const list = usePagedList<InstanceUser>("users", loadUsers);
  const [busy, setBusy] = useState<string>();
  const setGrade = async (user: InstanceUser, memberGrade: MemberGrade) => {
    setBusy(user.userId);
    const result = await endpoints.instance.setUserGrade(user.userId, { memberGrade });
    setBusy(undefined);
    if (!result.ok) return;
    feedback.success(t("instance.userGradeSaved", { name: user.name, grade: t(PLAN_LABEL_KEYS[memberGrade]) }));
    await Promise.all([list.reload(), refreshIfCurrent(user.personalSpaceId)]);
  };
  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Input.Search
          allowClear
          placeholder={t("instance.search.users")}
          onSearch={list.search}
          style={{ maxWidth: 360 }}
          data-testid="instance-users-search"
        />
        <Typography.Text type="secondary">{t("instance.gradeHint")}</Typography.Text>
      </Flex>
      <Table<InstanceUser>
        rowKey="userId"
        loading={list.loading}
        dataSource={list.data.items}
        data-testid="instance-users"
        pagination={{ current: list.pageNo, pageSize: PAGE_SIZE, total: list.data.total, onChange: list.setPageNo, showSizeChanger: false }}
        onRow={(user) => ({ "data-testid": `instance-user-${user.userId}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("instance.columns.name"),
            key: "name",
            render: (_, user) => (
              <Flex gap={8} align="center">
                <span>{user.name}</span>
                {user.isInstanceOwner ? <Tag color="gold">{t("instance.administrator")}</Tag> : null}
              </Flex>
            ),
          },
          { title: t("instance.columns.contact"), key: "contact", render: (_, user) => user.email ?? user.phone ?? "—" },
          {
            title: t("instance.columns.grade"),
            key: "grade",
            render: (_, user) => (
              <GradeSelect
                value={user.memberGrade}
                disabled={busy === user.userId}
                onChange={(grade) => void setGrade(user, grade)}
                testId={`instance-user-grade-${user.userId}`}
              />
            ),
          },
        ]}
      />
    </Flex>
  );
}

function SpaceEditor({ space, onClose, onSaved }: { space: InstanceSpace; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ memberGrade: MemberGrade } & Partial<Record<(typeof EDITABLE_QUOTA_KEYS)[number], number | null>>>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    const quotas = Object.fromEntries(EDITABLE_QUOTA_KEYS.flatMap((key) => (typeof values[key] === "number" ? [[key, values[key]]] : [])));
    setSaving(true);
    const result = await endpoints.instance.setSpaceCapabilities(space.spaceId, {
      memberGrade: values.memberGrade,
      quotas: Object.keys(quotas).length > 0 ? quotas : null,
    });
    setSaving(false);
    if (!result.ok) {
      const field = result.error.field?.replace(/^quotas\./, "");
      if (field === "memberGrade" || EDITABLE_QUOTA_KEYS.some((key) => key === field))
        form.setFields([{ name: field as "memberGrade", errors: [result.error.message] }]);
      return;
    }
    feedback.success(t("instance.spaceSaved", { name: space.companyName, grade: t(PLAN_LABEL_KEYS[result.data.memberGrade]) }));
    onSaved();
  };
  return (
    <Modal
      open
      title={t("instance.editSpace.title", { name: space.companyName })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "instance-space-save" } as Record<string, string>}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ memberGrade: space.memberGrade, ...(space.quotaOverrides ?? {}) }} data-testid="instance-space-form">
        <Form.Item name="memberGrade" label={t("instance.editSpace.grade")}>
          <Select options={MEMBER_GRADES.map((grade) => ({ value: grade, label: t(PLAN_LABEL_KEYS[grade]) }))} data-testid="instance-space-grade" />
        </Form.Item>
        <Typography.Text strong>{t("instance.editSpace.quotas")}</Typography.Text>
        <Typography.Paragraph type="secondary">{t("instance.editSpace.quotasHelp")}</Typography.Paragraph>
        {QUOTA_KEYS.map((key) => (
          <Form.Item key={key} name={key} label={t(`instance.editSpace.${key}`)} extra={t("instance.editSpace.followGrade", { value: space.quotas[key] })}>
            <InputNumber min={0} max={1_000_000} precision={0} style={{ width: "100%" }} data-testid={`instance-space-${key}`} />
          </Form.Item>
        ))}
        {PLAN_ONLY_QUOTA_KEYS.map((key) => (
          <Form.Item key={key} name={key} label={t(`quota.names.${key}`)} extra={t("instance.editSpace.followGrade", { value: space.quotas[key] })}>
            <InputNumber
              min={0}
              max={LARGE_QUOTA_KEYS.includes(key) ? 1_000_000_000_000 : 1_000_000}
              precision={0}
              style={{ width: "100%" }}
              data-testid={`instance-space-${key}`}
            />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function SpacesTab() {
  const { t } = useTranslation();
  const list = usePagedList<InstanceSpace>("spaces", loadSpaces);
  const [editing, setEditing] = useState<InstanceSpace>();
  return (
    <Flex vertical gap={12}>
      <Input.Search
        allowClear
        placeholder={t("instance.search.spaces")}
        onSearch={list.search}
        style={{ maxWidth: 360 }}
        data-testid="instance-spaces-search"
      />
      <Table<InstanceSpace>
        rowKey="spaceId"
        loading={list.loading}
        dataSource={list.data.items}
        data-testid="instance-spaces"
        pagination={{ current: list.pageNo, pageSize: PAGE_SIZE, total: list.data.total, onChange: list.setPageNo, showSizeChanger: false }}
        onRow={(space) => ({ "data-testid": `instance-space-${space.spaceId}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("instance.columns.space"),
            key: "name",
            render: (_, space) => (
              <span>
                {space.companyName} <Typography.Text type="secondary">{space.companyCode}</Typography.Text>
              </span>
            ),
          },
          { title: t("instance.columns.kind"), key: "kind", render: (_, space) => t(`instance.kinds.${space.kind}`) },
          {
            title: t("instance.columns.owner"),
            key: "owner",
            render: (_, space) => (space.ownerEmail ? `${space.ownerName} (${space.ownerEmail})` : space.ownerName),
          },
          {
            title: t("instance.columns.grade"),
            key: "grade",
            render: (_, space) => <Tag data-testid={`instance-space-grade-${space.spaceId}`}>{t(PLAN_LABEL_KEYS[space.memberGrade])}</Tag>,
          },
          {
            title: t("instance.columns.quotas"),
            key: "quotas",
            render: (_, space) => (
              <Flex vertical>
                <span>{t("instance.quotaSummary", space.quotas)}</span>
                {space.quotaOverrides ? <Typography.Text type="secondary">{t("instance.overridden")}</Typography.Text> : null}
              </Flex>
            ),
          },
          { title: t("instance.columns.members"), dataIndex: "memberCount", key: "members" },
          {
            title: t("instance.columns.actions"),
            key: "actions",
            render: (_, space) => (
              <Button icon={<EditOutlined />} onClick={() => setEditing(space)} data-testid={`instance-space-edit-${space.spaceId}`}>
                {t("instance.edit")}
              </Button>
            ),
          },
        ]}
      />
      {editing ? (
        <SpaceEditor
          space={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            const spaceId = editing.spaceId;
            setEditing(undefined);
            void Promise.all([list.reload(), refreshIfCurrent(spaceId)]);
          }}
        />
      ) : null}
    </Flex>
  );
}

/**
 * /console/instance: the administrator's users (grade) and spaces (grade and quota overrides).
 * Only the administrator sees it: the server's privileges answer lists the entry for them alone,
 * and the instance API refuses everyone else.
 */
export function InstancePage() {
  const { t } = useTranslation();
  const { privileges } = useSession();
  if (!privileges) return <PageLoader />;
  if (!privileges.menus.some((menu) => menu.key === "instance" && menu.visible)) {
    return <Result status="403" title={t("instance.forbiddenTitle")} subTitle={t("instance.forbidden")} data-testid="instance-forbidden" />;
  }
  return (
    <div data-testid="instance-page">
      <PageHeader title={t("instance.title")} subtitle={t("instance.subtitle")} />
      <div className="pl-card pl-instance__card">
        <Tabs
          items={[
            { key: "users", label: <span data-testid="instance-tab-users">{t("instance.tabs.users")}</span>, children: <UsersTab /> },
            { key: "spaces", label: <span data-testid="instance-tab-spaces">{t("instance.tabs.spaces")}</span>, children: <SpacesTab /> },
            { key: "cashOuts", label: <span data-testid="instance-tab-cash-outs">{t("benefits.review.tab")}</span>, children: <CashOutReviewTab /> },
            { key: "credits", label: <span data-testid="instance-tab-credits">{t("benefits.adjust.tab")}</span>, children: <CreditAdjustTab /> },
            { key: "orders", label: <span data-testid="instance-tab-orders">{t("billing.admin.tab")}</span>, children: <InstanceOrdersTab /> },
            { key: "plans", label: <span data-testid="instance-tab-plans">{t("instancePlans.tab")}</span>, children: <PlansTab /> },
            {
              key: "announcements",
              label: <span data-testid="instance-tab-announcements">{t("announcements.admin.tab")}</span>,
              children: <AnnouncementsAdminTab />,
            },
            {
              key: "contactRequests",
              label: <span data-testid="instance-tab-contact-requests">{t("contactForm.admin.tab")}</span>,
              children: <ContactRequestsTab />,
            },
            { key: "store", label: <span data-testid="instance-tab-store">{t("store.admin.tab")}</span>, children: <StoreAdminTab /> },
          ]}
        />
      </div>
    </div>
  );
}
