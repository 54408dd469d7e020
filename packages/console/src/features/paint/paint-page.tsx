import { DownloadOutlined, PictureOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Flex, Form, Image, Input, InputNumber, Pagination, Progress, Select, Space, Spin, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "../../components/page-header";
import { imageEndpoints, type ImageModel, type ImageTask } from "../../lib/api/images";
import { invalidateSpace, spaceQueryOptions, useSpaceQuery } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { saveBlob } from "../../lib/save-blob";
import { imageStatusMessage } from "./statuses";
import "./paint.css";

/** How often the gallery is refreshed while a task is unfinished. */
const POLL_MS = 1500;
const PAGE_SIZE = 12;
const NO_MODELS: ImageModel[] = [];
const PROVIDERS_PATH = `${PATHS.integrations}?tab=models`;

interface DrawFields {
  model: string;
  prompt: string;
  size: ImageModel["sizes"][number];
  count: number;
}

/** /paint: draw pictures from a prompt, follow the tasks, upscale and vary results, download them (spec §2, §7 Images). */
export function PaintPage() {
  const { t } = useTranslation();
  const { token, user } = useSession();
  const signedIn = Boolean(token);
  const [form] = Form.useForm<DrawFields>();
  const [pageNo, setPageNo] = useState(1);
  const [busy, setBusy] = useState(false);
  const models = useSpaceQuery({ key: ["images", "models"], fetch: (signal) => imageEndpoints.models({ signal }), enabled: signedIn, staleTime: 60_000 });
  const modelList = models.data ?? NO_MODELS;
  const chosenId = Form.useWatch("model", form);
  const chosen = modelList.find((model) => model.id === chosenId) ?? modelList[0];
  // The gallery is polled while a task runs; a poll that times out is ignored (spec §8), so it is a start-up style call.
  const tasks = useQuery({
    ...spaceQueryOptions(user?.spaceId, {
      key: ["images", "tasks", pageNo],
      fetch: (signal) => imageEndpoints.tasks(pageNo, PAGE_SIZE, { signal, startup: true }),
      enabled: signedIn,
      keepPreviousPage: true,
    }),
    refetchInterval: (query) => (query.state.data?.items.some((task) => task.status === "queued" || task.status === "running") ? POLL_MS : false),
  });

  useEffect(() => {
    if (!chosen) return;
    const current = form.getFieldsValue();
    form.setFieldsValue({
      model: chosen.id,
      size: chosen.sizes.includes(current.size) ? current.size : chosen.sizes[0],
      count: Math.min(current.count ?? 1, chosen.maxCount),
    });
  }, [chosen, form]);

  const started = async (result: Awaited<ReturnType<typeof imageEndpoints.generate>>) => {
    if (!result.ok) {
      // Spec §8: image calls show their status as a warning.
      if (result.error.code !== 401) feedback.warning(imageStatusMessage(t, result.error.code, result.error.message));
      return;
    }
    feedback.success(t("paint.started"));
    setPageNo(1);
    await invalidateSpace(["images", "tasks"]);
  };

  const draw = async (fields: DrawFields) => {
    setBusy(true);
    try {
      await started(
        await imageEndpoints.generate({ model: fields.model, prompt: fields.prompt.trim(), size: fields.size, count: fields.count }, { silent: true }),
      );
    } finally {
      setBusy(false);
    }
  };

  const operate = async (task: ImageTask, action: string) => {
    const operation = action.startsWith("U") ? "upscale" : "variation";
    await started(await imageEndpoints.operate(task.id, { operation, index: Number(action.slice(1)) }, { silent: true }));
  };

  const offline = signedIn && models.isSuccess && modelList.length === 0;
  const page = tasks.data;

  return (
    <div className="pl-paint" data-testid="paint-page">
      <PageHeader title={t("paint.title")} subtitle={t("paint.subtitle")} />
      {!signedIn ? (
        <Alert
          type="info"
          showIcon
          className="pl-paint__notice"
          message={t("paint.signInRequired")}
          action={
            <Link to={`${PATHS.login}?returnTo=${encodeURIComponent(PATHS.paint)}`}>
              <Button size="small" type="primary">
                {t("nav.login")}
              </Button>
            </Link>
          }
          data-testid="paint-sign-in"
        />
      ) : null}
      {offline ? (
        <Alert
          type="warning"
          showIcon
          className="pl-paint__notice"
          message={t("paint.offline.title")}
          description={
            <span>
              {t("paint.offline.description")} <Link to={PROVIDERS_PATH}>{t("paint.offline.link")}</Link>
            </span>
          }
          data-testid="paint-offline"
        />
      ) : null}
      <Card className="pl-paint__form">
        <Form
          form={form}
          layout="vertical"
          initialValues={{ size: "1024x1024", count: 1 }}
          onFinish={(fields) => void draw(fields)}
          disabled={!signedIn || offline}
        >
          <Form.Item
            name="prompt"
            label={t("paint.prompt")}
            rules={[
              { required: true, whitespace: true, message: t("paint.promptRequired") },
              { max: 4000, message: t("paint.promptTooLong") },
            ]}
          >
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              placeholder={t("paint.promptPlaceholder")}
              showCount
              maxLength={4000}
              data-testid="paint-prompt"
            />
          </Form.Item>
          <Flex gap={16} wrap>
            <Form.Item name="model" label={t("paint.model")} className="pl-paint__option">
              <Select
                options={modelList.map((model) => ({
                  value: model.id,
                  label: t("paint.modelOption", { id: model.id, provider: model.providerName, credits: model.creditsPerImage }),
                }))}
                placeholder={t("paint.noModel")}
                data-testid="paint-model"
              />
            </Form.Item>
            <Form.Item name="size" label={t("paint.size")} className="pl-paint__option">
              <Select options={(chosen?.sizes ?? ["1024x1024"]).map((size) => ({ value: size, label: size.replace("x", " × ") }))} data-testid="paint-size" />
            </Form.Item>
            <Form.Item name="count" label={t("paint.count")} extra={chosen?.format === "midjourney" ? t("paint.gridHint") : undefined}>
              <InputNumber min={1} max={chosen?.maxCount ?? 4} precision={0} data-testid="paint-count" />
            </Form.Item>
          </Flex>
          <Button
            type="primary"
            htmlType="submit"
            icon={<PictureOutlined />}
            loading={busy}
            disabled={!signedIn || offline || !chosen}
            data-testid="paint-generate"
          >
            {t("paint.generate")}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={4} className="pl-paint__gallery-title">
        {t("paint.gallery")}
      </Typography.Title>
      {signedIn && tasks.isPending ? <Spin /> : null}
      {page && page.items.length === 0 ? <Empty description={t("paint.empty")} /> : null}
      <div className="pl-paint__gallery" data-testid="paint-gallery">
        {page?.items.map((task) => (
          <TaskCard key={task.id} task={task} onOperate={(action) => void operate(task, action)} />
        ))}
      </div>
      {page && page.total > PAGE_SIZE ? (
        <Pagination current={pageNo} pageSize={PAGE_SIZE} total={page.total} onChange={setPageNo} className="pl-paint__pages" />
      ) : null}
    </div>
  );
}

const STATUS_COLORS: Record<ImageTask["status"], string> = { queued: "default", running: "processing", succeeded: "success", failed: "error" };

/** One task of the gallery: its state and progress, then its pictures with their buttons. */
function TaskCard({ task, onOperate }: { task: ImageTask; onOperate: (action: string) => void }) {
  const { t } = useTranslation();
  const unfinished = task.status === "queued" || task.status === "running";
  return (
    <Card size="small" className="pl-paint__task" data-testid="paint-task" data-task-id={task.id} data-status={task.status}>
      <Flex justify="space-between" align="center" gap={8}>
        <Space size={4} wrap>
          <Tag color={STATUS_COLORS[task.status]} data-testid="paint-task-status">
            {t(`paint.status.${task.status}`)}
          </Tag>
          {task.action !== "generate" ? <Tag>{t(`paint.action.${task.action}`, { index: task.parentIndex ?? 1 })}</Tag> : null}
          <Typography.Text type="secondary">{task.model}</Typography.Text>
        </Space>
        <Typography.Text type="secondary">{t("paint.credits", { count: task.credits })}</Typography.Text>
      </Flex>
      <Typography.Paragraph ellipsis={{ rows: 2, tooltip: task.prompt }} className="pl-paint__prompt">
        {task.prompt}
      </Typography.Paragraph>
      {unfinished ? <Progress percent={task.progress} status="active" data-testid="paint-task-progress" /> : null}
      {task.status === "failed" && task.error ? (
        <Alert type="warning" showIcon message={imageStatusMessage(t, task.error.code, task.error.message)} data-testid="paint-task-error" />
      ) : null}
      {task.images.length > 0 ? (
        <Image.PreviewGroup>
          <div className="pl-paint__images">
            {task.images.map((image) => (
              <TaskImage key={image.index} task={task} index={image.index} />
            ))}
          </div>
        </Image.PreviewGroup>
      ) : null}
      {task.actions.length > 0 ? (
        <Flex gap={4} wrap className="pl-paint__actions">
          {task.actions.map((action) => (
            <Button
              key={action}
              size="small"
              onClick={() => onOperate(action)}
              title={t(action.startsWith("U") ? "paint.upscaleHint" : "paint.variationHint", { index: action.slice(1) })}
              data-testid={`paint-action-${action}`}
            >
              {action}
            </Button>
          ))}
        </Flex>
      ) : null}
    </Card>
  );
}

/** A result picture, fetched with the owner's token and shown from an object URL; downloadable. */
function TaskImage({ task, index }: { task: ImageTask; index: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const blob = useQuery({
    ...spaceQueryOptions(user?.spaceId, {
      key: ["images", "file", task.id, index],
      fetch: (signal) => imageEndpoints.image(task.id, index, { signal, silent: true }),
      staleTime: Infinity,
    }),
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob.data) return;
    const next = URL.createObjectURL(blob.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob.data]);
  const extension = (task.images.find((image) => image.index === index)?.contentType.split("/")[1] ?? "png").replace("jpeg", "jpg");
  return (
    <div className="pl-paint__image" data-testid="paint-image">
      {url ? <Image src={url} alt={t("paint.imageAlt", { index })} /> : <Spin />}
      <Button
        size="small"
        type="text"
        icon={<DownloadOutlined />}
        disabled={!blob.data}
        onClick={() => blob.data && saveBlob(blob.data, `${task.id}-${index}.${extension}`)}
        aria-label={t("paint.download")}
        data-testid="paint-download"
      />
    </div>
  );
}
