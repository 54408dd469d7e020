import { ThunderboltOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, List, Select, Tag, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { checkCron } from "./workflow-rules";

/** The schedule as the panel shows it. */
export interface SchedulerView {
  cron: string | null;
  cronTimezone: string;
  cronEnabled: boolean;
  nextRuns: string[];
}

/** What the scheduler panel asks of the server. */
export interface SchedulerActions {
  /** A 5-field expression from a description, with its next runs; or the server's refusal. */
  generate: (description: string) => Promise<{ cron: string; nextRuns: string[] } | { error: string }>;
  /** The next 10 run times of an expression, or why it is refused. */
  preview: (cron: string, timezone: string) => Promise<{ nextRuns: string[] } | { error: string }>;
  save: (cron: string, timezone: string) => Promise<SchedulerView | { error: string }>;
  clear: () => Promise<SchedulerView | undefined>;
}

/** Props of {@link SchedulerPanel}. */
export interface SchedulerPanelProps {
  scheduler?: SchedulerView;
  actions: SchedulerActions;
  onChanged: (scheduler: SchedulerView) => void;
}

/** Common IANA zones offered, the browser's first. */
function zones(): string[] {
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  return [
    ...new Set([local, "UTC", "Asia/Shanghai", "Asia/Tokyo", "Asia/Singapore", "Europe/London", "Europe/Paris", "America/New_York", "America/Los_Angeles"]),
  ];
}

/**
 * The scheduler: describe when to run and generate the expression, or type it (5 fields,
 * checked here and by the server), see the next 10 run times, save (creates the timer) or clear.
 */
export function SchedulerPanel({ scheduler, actions, onChanged }: SchedulerPanelProps) {
  const { t, i18n } = useTranslation();
  const [description, setDescription] = useState("");
  const [cron, setCron] = useState(scheduler?.cron ?? "");
  const [timezone, setTimezone] = useState(scheduler?.cronTimezone ?? "UTC");
  const [nextRuns, setNextRuns] = useState<string[]>(scheduler?.nextRuns ?? []);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<"generate" | "save" | "clear">();
  const zoneOptions = useMemo(() => zones().map((zone) => ({ value: zone, label: zone })), []);

  useEffect(() => {
    setCron(scheduler?.cron ?? "");
    setTimezone(scheduler?.cronTimezone ?? "UTC");
    setNextRuns(scheduler?.nextRuns ?? []);
  }, [scheduler]);

  // Preview as the expression changes (after a pause), once it passes the local 5-field rule.
  useEffect(() => {
    const local = checkCron(cron);
    if (local) {
      setError(cron.trim() ? t(local) : undefined);
      setNextRuns([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      void actions.preview(cron.trim(), timezone).then((result) => {
        if (!live) return;
        if ("error" in result) {
          setError(result.error);
          setNextRuns([]);
        } else {
          setError(undefined);
          setNextRuns(result.nextRuns);
        }
      });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [cron, timezone, actions, t]);

  const generate = async () => {
    if (!description.trim()) return;
    setBusy("generate");
    try {
      const result = await actions.generate(description.trim());
      if ("error" in result) setError(result.error);
      else setCron(result.cron);
    } finally {
      setBusy(undefined);
    }
  };
  const save = async () => {
    const local = checkCron(cron);
    if (local) {
      setError(t(local));
      return;
    }
    setBusy("save");
    try {
      const result = await actions.save(cron.trim(), timezone);
      if ("error" in result) setError(result.error);
      else onChanged(result);
    } finally {
      setBusy(undefined);
    }
  };
  const clear = async () => {
    setBusy("clear");
    try {
      const result = await actions.clear();
      if (result) onChanged(result);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div className="pl-wf-scheduler" data-testid="wf-scheduler">
      <Flex gap={8} align="center" className="pl-wf-scheduler__state">
        <Typography.Text>{t("workflows.scheduler.state")}</Typography.Text>
        {scheduler?.cronEnabled ? (
          <Tag color="success" data-testid="wf-scheduler-state">
            {t("workflows.scheduler.enabled", { cron: scheduler.cron ?? "" })}
          </Tag>
        ) : (
          <Tag data-testid="wf-scheduler-state">{t("workflows.scheduler.disabled")}</Tag>
        )}
      </Flex>
      <Form layout="vertical" onSubmitCapture={(event) => event.preventDefault()}>
        <Form.Item label={t("workflows.scheduler.describe")} extra={t("workflows.scheduler.describeHint")}>
          <Flex gap={8}>
            <Input
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              onPressEnter={() => void generate()}
              placeholder={t("workflows.scheduler.describePlaceholder")}
              data-testid="wf-cron-description"
            />
            <Button
              icon={<ThunderboltOutlined />}
              onClick={() => void generate()}
              loading={busy === "generate"}
              disabled={!description.trim()}
              data-testid="wf-cron-generate"
            >
              {t("workflows.scheduler.generate")}
            </Button>
          </Flex>
        </Form.Item>
        <Form.Item
          label={t("workflows.scheduler.cron")}
          required
          validateStatus={error ? "error" : undefined}
          help={error ? <span data-testid="wf-cron-error">{error}</span> : t("workflows.scheduler.cronHint")}
        >
          <Input value={cron} onChange={(event) => setCron(event.target.value)} placeholder="0 9 * * 1-5" className="pl-wf-mono" data-testid="wf-cron" />
        </Form.Item>
        <Form.Item label={t("workflows.scheduler.timezone")}>
          <Select value={timezone} onChange={setTimezone} options={zoneOptions} showSearch data-testid="wf-cron-timezone" />
        </Form.Item>
      </Form>
      <Typography.Text strong>{t("workflows.scheduler.nextRuns")}</Typography.Text>
      {nextRuns.length === 0 ? (
        <Alert type="info" title={t("workflows.scheduler.noNextRuns")} className="pl-wf-scheduler__empty" />
      ) : (
        <List
          size="small"
          dataSource={nextRuns}
          data-testid="wf-cron-next-runs"
          renderItem={(time, index) => (
            <List.Item>
              <Typography.Text type="secondary">{index + 1}.</Typography.Text> {formatDateTime(time, i18n.language)}
            </List.Item>
          )}
        />
      )}
      <Flex gap={8} className="pl-wf-scheduler__actions">
        <Button type="primary" onClick={() => void save()} loading={busy === "save"} data-testid="wf-scheduler-save">
          {t("workflows.scheduler.save")}
        </Button>
        <Button onClick={() => void clear()} loading={busy === "clear"} disabled={!scheduler?.cronEnabled} data-testid="wf-scheduler-clear">
          {t("workflows.scheduler.clear")}
        </Button>
      </Flex>
    </div>
  );
}
