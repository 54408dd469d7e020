import { GiftOutlined, WalletOutlined } from "@ant-design/icons";
import { Button, Card, Col, Flex, Form, Input, InputNumber, Row, Statistic, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { benefitsEndpoints, type CashOut } from "../../lib/api/benefits";
import { useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { PATHS } from "../../lib/paths";
import { cashOutRules } from "./benefits-rules";
import type { components } from "@parley/sdk";

type BenefitMovement = components["schemas"]["BenefitMovement"];
type InvitedUser = components["schemas"]["InvitedUser"];

/** The statuses of a cash-out, coloured. */
const STATUS_COLOURS: Record<CashOut["status"], string> = { requested: "processing", approved: "success", refused: "error" };

function InvitationCard() {
  const { t, i18n } = useTranslation();
  const invitation = useSpaceQuery({ key: ["benefits", "invitation"], fetch: (signal) => benefitsEndpoints.invitation({ signal }) }).data;
  const invited = useSpaceQuery({ key: ["benefits", "invitations"], fetch: (signal) => benefitsEndpoints.invitations(1, 100, { signal }) });
  return (
    <Card className="pl-card-plain" title={t("benefits.invite.title")} data-testid="benefits-invitation">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("benefits.invite.description", { reward: invitation?.reward ?? 300 })}
        </Typography.Paragraph>
        {invitation ? (
          <Typography.Text
            code
            copyable={{ text: invitation.link, tooltips: [t("benefits.invite.copy"), t("benefits.invite.copied")] }}
            data-testid="benefits-invite-link"
          >
            {invitation.link}
          </Typography.Text>
        ) : null}
        <Row gutter={16}>
          <Col span={12}>
            <Statistic title={t("benefits.invite.invited")} value={invitation?.invited ?? 0} data-testid="benefits-invited" />
          </Col>
          <Col span={12}>
            <Statistic title={t("benefits.invite.earned")} value={invitation?.credits ?? 0} prefix={<GiftOutlined />} data-testid="benefits-invite-credits" />
          </Col>
        </Row>
        <Table<InvitedUser>
          rowKey="userId"
          size="small"
          loading={invited.isFetching}
          dataSource={invited.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="benefits-invitations"
          locale={{ emptyText: <EmptyState compact title={t("benefits.invite.emptyTitle")} description={t("benefits.invite.emptyDescription")} /> }}
          columns={[
            { key: "name", title: t("benefits.invite.columns.name"), dataIndex: "name" },
            { key: "credits", title: t("benefits.invite.columns.credits"), dataIndex: "credits", align: "right", render: (value: number) => `+${value}` },
            {
              key: "createdAt",
              title: t("benefits.invite.columns.time"),
              dataIndex: "createdAt",
              render: (value: string) => formatDateTime(value, i18n.language),
            },
          ]}
        />
      </Flex>
    </Card>
  );
}

function CashOutForm({ balance }: { balance: number }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: number | null; account: string }>();
  const request = useSpaceMutation({
    run: (body: { amount: number; account: string }) => benefitsEndpoints.requestCashOut(body),
    invalidates: [["benefits"]],
    onSuccess: () => {
      feedback.success(t("benefits.cashOut.requested"));
      form.resetFields();
    },
  });
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={(values) => request.mutate({ amount: values.amount ?? 0, account: values.account.trim() })}
      data-testid="benefits-cash-out-form"
    >
      <Form.Item
        name="amount"
        rules={[
          {
            validator: async (_rule, value: number | null) =>
              cashOutRules.amount(value, balance) ? Promise.reject(new Error(t(cashOutRules.amount(value, balance)!, { balance }))) : undefined,
          },
        ]}
      >
        <InputNumber min={1} precision={0} placeholder={t("benefits.cashOut.amount")} style={{ width: 160 }} data-testid="benefits-cash-out-amount" />
      </Form.Item>
      <Form.Item
        name="account"
        rules={[
          { validator: async (_rule, value: string) => (cashOutRules.account(value) ? Promise.reject(new Error(t(cashOutRules.account(value)!))) : undefined) },
        ]}
      >
        <Input placeholder={t("benefits.cashOut.account")} maxLength={200} style={{ width: 260 }} data-testid="benefits-cash-out-account" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={request.isPending} disabled={balance <= 0} data-testid="benefits-cash-out-submit">
          {t("benefits.cashOut.submit")}
        </Button>
      </Form.Item>
    </Form>
  );
}

function CreatorCard() {
  const { t, i18n } = useTranslation();
  const account = useSpaceQuery({ key: ["benefits", "account"], fetch: (signal) => benefitsEndpoints.account({ signal }) }).data;
  const ledger = useSpaceQuery({ key: ["benefits", "ledger"], fetch: (signal) => benefitsEndpoints.ledger(1, 100, { signal }) });
  const cashOuts = useSpaceQuery({ key: ["benefits", "cash-outs"], fetch: (signal) => benefitsEndpoints.cashOuts({ signal }) });
  return (
    <Card className="pl-card-plain" title={t("benefits.creator.title")} data-testid="benefits-creator">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("benefits.creator.description", { percent: account?.sharePercent ?? 20 })}
        </Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Statistic title={t("benefits.creator.balance")} value={account?.balance ?? 0} prefix={<WalletOutlined />} data-testid="benefits-balance" />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("benefits.creator.totalEarned")} value={account?.totalEarned ?? 0} data-testid="benefits-total" />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("benefits.creator.cashedOut")} value={account?.cashedOut ?? 0} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("benefits.creator.pending")} value={account?.pending ?? 0} />
          </Col>
        </Row>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("benefits.cashOut.title")}
        </Typography.Title>
        <CashOutForm balance={account?.balance ?? 0} />
        <Table<CashOut>
          rowKey="id"
          size="small"
          loading={cashOuts.isFetching}
          dataSource={cashOuts.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="benefits-cash-outs"
          locale={{ emptyText: <EmptyState compact title={t("benefits.cashOut.emptyTitle")} /> }}
          columns={[
            { key: "createdAt", title: t("benefits.columns.time"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
            { key: "amount", title: t("benefits.cashOut.amount"), dataIndex: "amount", align: "right" },
            { key: "account", title: t("benefits.cashOut.account"), dataIndex: "account" },
            {
              key: "status",
              title: t("benefits.columns.status"),
              dataIndex: "status",
              render: (status: CashOut["status"]) => <Tag color={STATUS_COLOURS[status]}>{t(`benefits.cashOut.statuses.${status}`)}</Tag>,
            },
            { key: "note", title: t("benefits.cashOut.note"), dataIndex: "reviewNote", render: (value: string | null) => value ?? "" },
          ]}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("benefits.creator.records")}
        </Typography.Title>
        <Table<BenefitMovement>
          rowKey="id"
          size="small"
          loading={ledger.isFetching}
          dataSource={ledger.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="benefits-ledger"
          locale={{ emptyText: <EmptyState compact title={t("benefits.creator.emptyTitle")} description={t("benefits.creator.emptyDescription")} /> }}
          columns={[
            { key: "createdAt", title: t("benefits.columns.time"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
            {
              key: "reason",
              title: t("benefits.columns.reason"),
              dataIndex: "reason",
              render: (reason: BenefitMovement["reason"]) => <Tag>{t(`benefits.reasons.${reason}`)}</Tag>,
            },
            {
              key: "delta",
              title: t("benefits.columns.delta"),
              dataIndex: "delta",
              align: "right",
              render: (delta: number) => <Typography.Text type={delta < 0 ? "danger" : "success"}>{delta > 0 ? `+${delta}` : String(delta)}</Typography.Text>,
            },
            { key: "balanceAfter", title: t("benefits.columns.balanceAfter"), dataIndex: "balanceAfter", align: "right" },
          ]}
        />
      </Flex>
    </Card>
  );
}

/** /benefits: the invitation link and its rewards, the creator benefits account and cash-outs. */
export function BenefitsPage() {
  const { t } = useTranslation();
  const { token } = useSession();
  const navigate = useNavigate();
  if (!token) {
    return (
      <div className="pl-card" data-testid="benefits-page">
        <EmptyState
          title={t("benefits.title")}
          description={t("benefits.signIn")}
          action={
            <Button type="primary" onClick={() => navigate(`${PATHS.login}?returnTo=${encodeURIComponent(PATHS.benefits)}`)}>
              {t("nav.login")}
            </Button>
          }
        />
      </div>
    );
  }
  return (
    <div data-testid="benefits-page" style={{ maxWidth: 1100, margin: "0 auto", padding: 24 }}>
      <PageHeader title={t("benefits.title")} subtitle={t("benefits.subtitle")} />
      <Flex vertical gap={16}>
        <InvitationCard />
        <CreatorCard />
      </Flex>
    </div>
  );
}
