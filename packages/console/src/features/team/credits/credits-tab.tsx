import { EditOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Flex, InputNumber, Modal, Statistic, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState } from "../../../components/empty-state";
import { PageLoader } from "../../../components/page-loader";
import { useSpaceQuery, useSpaceResource } from "../../../lib/api/query";
import { useSession } from "../../../lib/api/session";
import { type MemberCredits, type TeamCredits, teamCreditsEndpoints } from "../../../lib/api/team-credits";
import { PATHS } from "../../../lib/paths";
import { formatMoney } from "../../payments/buy-flow";
import { allocationProblem, canAllocateTo, maxAllocationFor, seatsRunOut } from "./credits-rules";

const SUMMARY_KEY = ["team", "credits"] as const;

/** The dialog that sets one member's allocation; the server's refusal (over the balance) shows inside it. */
function AllocationDialog({
  summary,
  member,
  onClose,
  onSaved,
}: {
  summary: TeamCredits;
  member: MemberCredits;
  onClose: () => void;
  onSaved: (next: TeamCredits) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<number | null>(member.allocation);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const max = maxAllocationFor(summary, member);
  const problem = allocationProblem(value, max);

  const save = async () => {
    if (problem || value === null) return;
    setSaving(true);
    setRefusal(undefined);
    const result = await teamCreditsEndpoints.allocate({ userId: member.userId, amount: value });
    setSaving(false);
    if (!result.ok) {
      setRefusal(result.error.message);
      return;
    }
    onSaved(result.data);
  };

  return (
    <Modal
      open
      title={t("teamCredits.dialog.title", { name: member.name })}
      okText={t("teamCredits.dialog.save")}
      cancelText={t("teamCredits.dialog.cancel")}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ disabled: Boolean(problem), loading: saving, ...({ "data-testid": "team-credits-save" } as Record<string, string>) }}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t("teamCredits.dialog.hint", { max: max.toLocaleString() })}</Typography.Text>
        <InputNumber
          min={0}
          precision={0}
          value={value}
          onChange={(next) => setValue(typeof next === "number" ? next : null)}
          style={{ width: "100%" }}
          data-testid="team-credits-amount"
        />
        {problem && value !== null ? <Typography.Text type="danger">{t(problem, { max: max.toLocaleString() })}</Typography.Text> : null}
        {refusal ? <Alert type="error" showIcon message={refusal} data-testid="team-credits-refusal" /> : null}
      </Flex>
    </Modal>
  );
}

/** The member-seat figures of the plan, with the upgrade offer when no seat is left. */
function MemberSeats() {
  const { t, i18n } = useTranslation();
  const privilege = useSpaceQuery({ key: ["team", "member-privilege"], fetch: (signal) => teamCreditsEndpoints.memberPrivilege({ signal }) });
  const cost = useSpaceQuery({ key: ["team", "member-privilege", "cost"], fetch: (signal) => teamCreditsEndpoints.memberPrivilegeCost({ signal }) });
  if (!privilege.data) return null;
  const seats = privilege.data;
  const upgrade = cost.data?.upgrade;
  const currency = i18n.language.startsWith("zh") ? "CNY" : "USD";
  return (
    <Card size="small" title={t("teamCredits.seats.title")} data-testid="team-credits-seats">
      <Flex gap={32} wrap align="center">
        <Statistic title={t("teamCredits.seats.plan")} value={t(`quota.plans.${seats.planCode}`)} />
        <Statistic title={t("teamCredits.seats.limit")} value={seats.limit} />
        <Statistic title={t("teamCredits.seats.used")} value={seats.used} />
        <Statistic title={t("teamCredits.seats.remaining")} value={seats.remaining} />
      </Flex>
      {seatsRunOut(seats) ? (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          data-testid="team-credits-seats-full"
          message={t("teamCredits.seats.full")}
          description={
            upgrade
              ? t("teamCredits.seats.upgradeTo", {
                  plan: t(`quota.plans.${upgrade.planCode}`),
                  limit: upgrade.limit,
                  price: formatMoney(upgrade.monthlyPrices[currency], currency, i18n.language),
                })
              : t("teamCredits.seats.noUpgrade")
          }
          action={
            <Link to={PATHS.price} data-testid="team-credits-upgrade">
              <Button type="primary" size="small">
                {t("teamCredits.seats.upgrade")}
              </Button>
            </Link>
          }
        />
      ) : null}
    </Card>
  );
}

/** Team space → Credits: the balance summary, each member's allocation and spending, and the members quota (issue 16). */
export function CreditsTab() {
  const { t } = useTranslation();
  const callerId = useSession().user?.id;
  const summary = useSpaceResource({ key: SUMMARY_KEY, fetch: (signal) => teamCreditsEndpoints.summary({ signal }) });
  const [editing, setEditing] = useState<MemberCredits>();
  if (summary.query.isPending) return <PageLoader />;
  if (!summary.data) return <EmptyState title={t("teamCredits.loadFailed")} data-testid="team-credits-failed" />;
  const data = summary.data;

  const columns = [
    {
      title: t("teamCredits.columns.member"),
      key: "member",
      render: (_: unknown, member: MemberCredits) => (
        <Flex vertical>
          <span>
            {member.name} {member.owner ? <Tag>{t("roles.owner")}</Tag> : null}
          </span>
          <Typography.Text type="secondary">{member.email ?? member.phone ?? ""}</Typography.Text>
        </Flex>
      ),
    },
    { title: t("teamCredits.columns.allocation"), dataIndex: "allocation", key: "allocation", render: (value: number) => value.toLocaleString() },
    { title: t("teamCredits.columns.spent"), dataIndex: "spent", key: "spent", render: (value: number) => value.toLocaleString() },
    { title: t("teamCredits.columns.spentTotal"), dataIndex: "spentTotal", key: "spentTotal", render: (value: number) => value.toLocaleString() },
    {
      title: t("teamCredits.columns.actions"),
      key: "actions",
      render: (_: unknown, member: MemberCredits) =>
        canAllocateTo(member, callerId) ? (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(member)} data-testid={`team-credits-edit-${member.userId}`}>
            {t("teamCredits.edit")}
          </Button>
        ) : (
          <Typography.Text type="secondary">{member.owner ? t("teamCredits.ownerPool") : "—"}</Typography.Text>
        ),
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="team-credits">
      <Card size="small">
        <Flex gap={32} wrap>
          <Statistic title={t("teamCredits.balance")} value={data.balance} data-testid="team-credits-balance" />
          <Statistic title={t("teamCredits.allocated")} value={data.allocated} data-testid="team-credits-allocated" />
          <Statistic title={t("teamCredits.unallocated")} value={data.unallocated} data-testid="team-credits-unallocated" />
          {data.held > 0 ? <Statistic title={t("teamCredits.held")} value={data.held} /> : null}
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t("teamCredits.explain")}
        </Typography.Paragraph>
      </Card>
      <Table rowKey="userId" columns={columns} dataSource={data.members} pagination={false} loading={summary.loading} data-testid="team-credits-members" />
      <MemberSeats />
      {editing ? (
        <AllocationDialog
          summary={data}
          member={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(next) => {
            summary.set(() => next);
            setEditing(undefined);
          }}
        />
      ) : null}
    </Flex>
  );
}
