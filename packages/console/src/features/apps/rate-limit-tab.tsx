import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import { Alert, Button, Flex, Input, InputNumber, Popconfirm, Select, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSpaceResource } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { APP_LIMITS, rateLimitRules } from "./app-rules";

type RateLimitRule = components["schemas"]["RateLimitRule"];
type Draft = Pick<RateLimitRule, "targetChannel" | "periodUnit" | "count" | "replyWhenExceeded"> & { id?: string };

export const CHANNELS = ["all", "personal", "official_account", "wecom_internal"] as const;
export const PERIODS = ["second", "minute", "hour", "day"] as const;

/** Props of {@link RateLimitTab}. */
export interface RateLimitTabProps {
  appId: string;
  /** Told whenever a rule is being added or edited and not yet saved (spec §5: that blocks other actions). */
  onDirtyChange: (dirty: boolean) => void;
}

/** Warns that an unsaved rate-limit rule blocks the action; answers true when blocked. */
export function blockedByRateLimit(dirty: boolean, message: string): boolean {
  if (dirty) feedback.warning(message);
  return dirty;
}

const NO_RULES: RateLimitRule[] = [];

/**
 * The Rate Limit tab: rules per target channel and period, a count per single user (at least
 * 1) and the reply when exceeded (none by default). One rule is edited at a time; while it is
 * unsaved, other actions are refused with a warning (spec §5).
 */
export function RateLimitTab({ appId, onDirtyChange }: RateLimitTabProps) {
  const { t } = useTranslation();
  const list = useSpaceResource({ key: ["apps", appId, "rate-limits"], fetch: (signal) => endpoints.apps.rateLimits(appId, { signal }) });
  const rules = list.data ?? NO_RULES;
  const { loading, set: setRules } = list;
  const [draft, setDraftState] = useState<Draft>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  /** Every change of the rule being edited also tells the editor whether one is unsaved. */
  const setDraft = (next: Draft | undefined) => {
    setDraftState(next);
    onDirtyChange(next !== undefined);
  };

  const blocked = () => blockedByRateLimit(draft !== undefined, t("apps.rateLimit.unsaved"));

  const startAdd = () => {
    if (blocked()) return;
    setError(undefined);
    setDraft({ targetChannel: "all", periodUnit: "minute", count: 10, replyWhenExceeded: null });
  };
  const startEdit = (rule: RateLimitRule) => {
    if (blocked()) return;
    setError(undefined);
    setDraft({ id: rule.id, targetChannel: rule.targetChannel, periodUnit: rule.periodUnit, count: rule.count, replyWhenExceeded: rule.replyWhenExceeded });
  };
  const remove = async (rule: RateLimitRule) => {
    if (blocked()) return;
    const result = await endpoints.apps.removeRateLimit(rule.id);
    if (!result.ok) return;
    setRules((current) => current.filter((item) => item.id !== rule.id));
    feedback.success(t("apps.rateLimit.deleted"));
  };
  const save = async () => {
    if (!draft) return;
    const problem = rateLimitRules.count(draft.count) ?? rateLimitRules.reply(draft.replyWhenExceeded);
    if (problem) {
      setError(t(problem));
      return;
    }
    setSaving(true);
    try {
      const body = {
        targetChannel: draft.targetChannel,
        periodUnit: draft.periodUnit,
        count: draft.count,
        replyWhenExceeded: draft.replyWhenExceeded?.trim() || null,
      };
      const result = draft.id
        ? await endpoints.apps.updateRateLimit(draft.id, body, { silent: true })
        : await endpoints.apps.addRateLimit(appId, body, { silent: true });
      if (!result.ok) {
        setError(result.error.code === 409 ? t("apps.rateLimit.duplicate") : result.error.message);
        return;
      }
      setRules((current) => (draft.id ? current.map((rule) => (rule.id === draft.id ? result.data : rule)) : [...current, result.data]));
      setDraft(undefined);
      setError(undefined);
      feedback.success(t("apps.rateLimit.saved"));
    } finally {
      setSaving(false);
    }
  };

  const rows: (RateLimitRule | (Draft & { id: string; isNew: true }))[] = draft && !draft.id ? [...rules, { ...draft, id: "__new__", isNew: true }] : rules;
  const editing = (row: { id: string }) => draft !== undefined && (draft.id ?? "__new__") === row.id;

  return (
    <div className="pl-editor__rules" data-testid="rate-limit-tab">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Paragraph type="secondary" className="pl-editor__section">
          {t("apps.rateLimit.intro")}
        </Typography.Paragraph>
        <Button icon={<PlusOutlined />} onClick={startAdd} data-testid="rate-limit-add">
          {t("apps.rateLimit.add")}
        </Button>
      </Flex>
      {draft ? <Alert type="info" showIcon className="pl-editor__section" title={t("apps.rateLimit.editingHint")} data-testid="rate-limit-unsaved" /> : null}
      {error ? <Alert type="error" showIcon className="pl-editor__section" title={error} data-testid="rate-limit-error" /> : null}
      <Table
        rowKey="id"
        size="middle"
        loading={loading}
        pagination={false}
        dataSource={rows}
        data-testid="rate-limit-table"
        locale={{ emptyText: t("apps.rateLimit.empty") }}
        columns={[
          {
            key: "channel",
            title: t("apps.rateLimit.channel"),
            render: (_value, row) =>
              editing(row) && draft ? (
                <Select
                  value={draft.targetChannel}
                  onChange={(targetChannel) => setDraft({ ...draft, targetChannel })}
                  options={CHANNELS.map((value) => ({ value, label: t(`apps.rateLimit.channels.${value}`) }))}
                  style={{ minWidth: 170 }}
                  data-testid="rate-limit-channel"
                />
              ) : (
                t(`apps.rateLimit.channels.${row.targetChannel}`)
              ),
          },
          {
            key: "period",
            title: t("apps.rateLimit.period"),
            render: (_value, row) =>
              editing(row) && draft ? (
                <Select
                  value={draft.periodUnit}
                  onChange={(periodUnit) => setDraft({ ...draft, periodUnit })}
                  options={PERIODS.map((value) => ({ value, label: t(`apps.rateLimit.periods.${value}`) }))}
                  style={{ minWidth: 100 }}
                  data-testid="rate-limit-period"
                />
              ) : (
                t(`apps.rateLimit.periods.${row.periodUnit}`)
              ),
          },
          {
            key: "count",
            title: t("apps.rateLimit.count"),
            render: (_value, row) =>
              editing(row) && draft ? (
                <InputNumber
                  value={draft.count}
                  min={0}
                  max={APP_LIMITS.rateLimitCountMax}
                  precision={0}
                  onChange={(count) => setDraft({ ...draft, count: count ?? Number.NaN })}
                  status={rateLimitRules.count(draft.count) ? "error" : undefined}
                  data-testid="rate-limit-count"
                />
              ) : (
                row.count
              ),
          },
          {
            key: "reply",
            title: t("apps.rateLimit.reply"),
            render: (_value, row) =>
              editing(row) && draft ? (
                <Input
                  value={draft.replyWhenExceeded ?? ""}
                  maxLength={APP_LIMITS.rateLimitReplyMax}
                  placeholder={t("apps.rateLimit.replyPlaceholder")}
                  onChange={(event) => setDraft({ ...draft, replyWhenExceeded: event.target.value })}
                  data-testid="rate-limit-reply"
                />
              ) : (
                (row.replyWhenExceeded ?? <Typography.Text type="secondary">{t("apps.rateLimit.noReply")}</Typography.Text>)
              ),
          },
          {
            key: "actions",
            title: t("apps.rateLimit.actions"),
            align: "right",
            render: (_value, row) =>
              editing(row) ? (
                <Flex gap={4} justify="flex-end">
                  <Button
                    size="small"
                    onClick={() => {
                      setDraft(undefined);
                      setError(undefined);
                    }}
                    data-testid="rate-limit-cancel"
                  >
                    {t("common.cancel")}
                  </Button>
                  <Button size="small" type="primary" loading={saving} onClick={() => void save()} data-testid="rate-limit-save">
                    {t("apps.rateLimit.saveRule")}
                  </Button>
                </Flex>
              ) : "isNew" in row ? null : (
                <Flex gap={4} justify="flex-end">
                  <Button
                    size="small"
                    type="text"
                    icon={<EditOutlined />}
                    onClick={() => startEdit(row)}
                    data-testid={`rate-limit-edit-${row.id}`}
                    aria-label={t("apps.rateLimit.edit")}
                  />
                  <Popconfirm
                    title={t("apps.rateLimit.deleteTitle")}
                    okText={t("common.delete")}
                    cancelText={t("common.cancel")}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => void remove(row)}
                    disabled={draft !== undefined}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => blocked()}
                      data-testid={`rate-limit-delete-${row.id}`}
                      aria-label={t("common.delete")}
                    />
                  </Popconfirm>
                </Flex>
              ),
          },
        ]}
      />
    </div>
  );
}
