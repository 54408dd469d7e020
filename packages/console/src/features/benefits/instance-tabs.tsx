import { Button, Card, Flex, Form, Input, InputNumber, Popconfirm, Segmented, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { benefitsEndpoints, type CashOut, type CashOutForReview } from "../../lib/api/benefits";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceMutation, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { formatDateTime } from "../../lib/format";
import { adjustmentRules } from "./benefits-rules";

type StatusFilter = CashOut["status"] | "all";
const STATUS_COLOURS: Record<CashOut["status"], string> = { requested: "processing", approved: "success", refused: "error" };

/** Instance: cash-out requests to approve or refuse. */
export function CashOutReviewTab() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<StatusFilter>("requested");
  const list = useSpaceQuery({
    key: ["instance", "cash-outs", status],
    fetch: (signal) => benefitsEndpoints.reviewCashOuts(status === "all" ? undefined : status, { signal }),
  });
  const decide = useSpaceMutation({
    run: (input: { id: string; decision: "approve" | "refuse" }) => benefitsEndpoints.decideCashOut(input.id, input.decision, undefined),
    invalidates: [["instance", "cash-outs"]],
    onSuccess: (row) => feedback.success(t(row.status === "approved" ? "benefits.review.approved" : "benefits.review.refused")),
  });
  return (
    <Flex vertical gap={12}>
      <Segmented<StatusFilter>
        value={status}
        onChange={setStatus}
        options={(["requested", "approved", "refused", "all"] as const).map((value) => ({ value, label: t(`benefits.review.filters.${value}`) }))}
        data-testid="cash-out-review-filter"
      />
      <Table<CashOutForReview>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        data-testid="cash-out-review"
        columns={[
          { key: "createdAt", title: t("benefits.columns.time"), dataIndex: "createdAt", render: (value: string) => formatDateTime(value, i18n.language) },
          { key: "user", title: t("benefits.review.user"), render: (_value, row) => `${row.userName} (${row.userEmail ?? row.userId})` },
          { key: "amount", title: t("benefits.cashOut.amount"), dataIndex: "amount", align: "right" },
          { key: "account", title: t("benefits.cashOut.account"), dataIndex: "account" },
          {
            key: "status",
            title: t("benefits.columns.status"),
            dataIndex: "status",
            render: (value: CashOut["status"]) => <Tag color={STATUS_COLOURS[value]}>{t(`benefits.cashOut.statuses.${value}`)}</Tag>,
          },
          {
            key: "actions",
            title: "",
            render: (_value, row) =>
              row.status === "requested" ? (
                <Flex gap={8}>
                  <Popconfirm
                    title={t("benefits.review.approveConfirm", { amount: row.amount })}
                    onConfirm={() => decide.mutate({ id: row.id, decision: "approve" })}
                  >
                    <Button size="small" type="primary" data-testid={`cash-out-approve-${row.id}`}>
                      {t("benefits.review.approve")}
                    </Button>
                  </Popconfirm>
                  <Popconfirm title={t("benefits.review.refuseConfirm")} onConfirm={() => decide.mutate({ id: row.id, decision: "refuse" })}>
                    <Button size="small" danger data-testid={`cash-out-refuse-${row.id}`}>
                      {t("benefits.review.refuse")}
                    </Button>
                  </Popconfirm>
                </Flex>
              ) : null,
          },
        ]}
      />
    </Flex>
  );
}

interface AdjustForm {
  spaceId: string | undefined;
  delta: number | null;
  note: string;
}

/** Instance: add or remove credits of a space, with a note. */
export function CreditAdjustTab() {
  const { t } = useTranslation();
  const [form] = Form.useForm<AdjustForm>();
  const [keyword, setKeyword] = useState("");
  const spaces = useSpaceQuery({
    key: ["instance", "adjust-spaces", keyword],
    keepPreviousPage: true,
    fetch: (signal) => endpoints.instance.spaces({ pageNo: 1, pageSize: 50, ...(keyword ? { keyword } : {}) }, { signal }),
  });
  const adjust = useSpaceMutation({
    run: (values: { spaceId: string; delta: number; note: string }) =>
      benefitsEndpoints.adjustCredits(values.spaceId, { delta: values.delta, note: values.note }),
    invalidates: [["credits"], ["records"]],
    onSuccess: (result) => {
      feedback.success(t("benefits.adjust.done", { balance: result.balance }));
      form.resetFields(["delta", "note"]);
    },
  });
  const reject = (key: string | undefined) => (key ? Promise.reject(new Error(t(key))) : Promise.resolve());
  return (
    <Card className="pl-card-plain" style={{ maxWidth: 640 }}>
      <Typography.Paragraph type="secondary">{t("benefits.adjust.description")}</Typography.Paragraph>
      <Form<AdjustForm>
        form={form}
        layout="vertical"
        onFinish={(values) => adjust.mutate({ spaceId: values.spaceId!, delta: values.delta!, note: values.note.trim() })}
        data-testid="credit-adjust-form"
      >
        <Form.Item name="spaceId" label={t("benefits.adjust.space")} rules={[{ required: true, message: t("benefits.adjust.validation.spaceRequired") }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            loading={spaces.isFetching}
            options={(spaces.data?.items ?? []).map((space) => ({
              value: space.spaceId,
              label: `${space.companyName} · ${space.ownerEmail ?? space.ownerName}`,
            }))}
            data-testid="credit-adjust-space"
          />
        </Form.Item>
        <Form.Item
          name="delta"
          label={t("benefits.adjust.delta")}
          extra={t("benefits.adjust.deltaHelp")}
          rules={[{ validator: async (_rule, value: number | null) => reject(adjustmentRules.delta(value)) }]}
        >
          <InputNumber precision={0} style={{ width: 200 }} data-testid="credit-adjust-delta" />
        </Form.Item>
        <Form.Item name="note" label={t("benefits.adjust.note")} rules={[{ validator: async (_rule, value: string) => reject(adjustmentRules.note(value)) }]}>
          <Input maxLength={200} data-testid="credit-adjust-note" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={adjust.isPending} data-testid="credit-adjust-submit">
          {t("benefits.adjust.submit")}
        </Button>
      </Form>
    </Card>
  );
}
