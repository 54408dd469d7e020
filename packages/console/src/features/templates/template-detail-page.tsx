import { CopyOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Descriptions, Flex, Result, Spin, Tag, Timeline, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useParams } from "react-router";
import { AppAvatar } from "../../components/app-avatar";
import { PageHeader } from "../../components/page-header";
import { invalidateSpace, unwrap } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { templateEndpoints, type TemplateCopy } from "../../lib/api/templates";
import { feedback } from "../../lib/feedback";
import { chatPath, editorPath } from "../apps/apps-page";
import { workflowEditorPath } from "../workflows/workflows-page";
import { loginReturning, templatesPath } from "./paths";
import "./templates.css";

/** /template/{code} and /console/template/{code}: what a template holds, and copying it into the current space. */
export function TemplateDetailPage() {
  const { t, i18n } = useTranslation();
  const { code = "" } = useParams();
  const location = useLocation();
  const inConsole = location.pathname.startsWith("/console");
  const navigate = useNavigate();
  const { token, nowSelect } = useSession();
  const [copying, setCopying] = useState(false);
  const [copied, setCopied] = useState<TemplateCopy>();
  const detail = useQuery({
    queryKey: ["templates", "detail", code, i18n.language],
    queryFn: ({ signal }) => unwrap(templateEndpoints.detail(code, { signal, silent: true })),
  });

  const copy = async () => {
    setCopying(true);
    const result = await templateEndpoints.copy(code);
    setCopying(false);
    if (!result.ok) return;
    setCopied(result.data);
    feedback.success(t("templates.copied", { name: result.data.name }));
    void invalidateSpace(result.data.kind === "app" ? ["apps"] : ["workflows"]);
  };

  if (detail.isLoading) return <Spin />;
  if (!detail.data) {
    return (
      <Result
        status="404"
        title={t("templates.notFound")}
        extra={<Button onClick={() => navigate(templatesPath(inConsole))}>{t("templates.backToList")}</Button>}
        data-testid="template-not-found"
      />
    );
  }
  const template = detail.data;
  return (
    <div className="pl-template-detail" data-testid="template-detail">
      <PageHeader
        title={
          <Flex gap={12} align="center">
            <AppAvatar name={template.name} src={template.avatarUrl} size={40} />
            <span>{template.name}</span>
          </Flex>
        }
        subtitle={template.description}
        breadcrumb={[{ label: t("templates.title"), to: templatesPath(inConsole) }, { label: template.name }]}
        extra={
          token ? (
            <Button type="primary" icon={<CopyOutlined />} loading={copying} onClick={() => void copy()} data-testid="template-copy">
              {t("templates.copyTo", { space: nowSelect?.companyName ?? "" })}
            </Button>
          ) : (
            <Button type="primary" onClick={() => navigate(loginReturning(location.pathname))} data-testid="template-sign-in">
              {t("templates.signInToCopy")}
            </Button>
          )
        }
      />
      {copied ? (
        <Alert
          type="success"
          showIcon
          className="pl-template-detail__copied"
          message={t("templates.copiedTitle", { name: copied.name })}
          description={copied.nextStep ?? undefined}
          action={
            <Flex gap={8} vertical>
              {copied.kind === "app" && copied.appId ? (
                <>
                  <Button size="small" type="primary" onClick={() => navigate(editorPath(copied.appId!))} data-testid="template-open-copy">
                    {t("templates.openApp")}
                  </Button>
                  {copied.appCode ? (
                    <Button size="small" onClick={() => navigate(chatPath(copied.appCode!))} data-testid="template-chat-copy">
                      {t("templates.chatWithCopy")}
                    </Button>
                  ) : null}
                </>
              ) : copied.workflowId ? (
                <Button size="small" type="primary" onClick={() => navigate(workflowEditorPath(copied.workflowId!))} data-testid="template-open-copy">
                  {t("templates.openWorkflow")}
                </Button>
              ) : null}
            </Flex>
          }
          data-testid="template-copied"
        />
      ) : null}
      <Card className="pl-card-plain">
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t("templates.fields.kind")}>
            <Tag color={template.kind === "app" ? "blue" : "purple"}>{t(`templates.kinds.${template.kind}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t("templates.fields.group")}>{template.groupName}</Descriptions.Item>
          {template.knowledgeBase ? (
            <Descriptions.Item label={t("templates.fields.knowledgeBase")}>
              {template.knowledgeBase.sampleQaCount > 0
                ? t("templates.knowledgeWithSample", { name: template.knowledgeBase.name, count: template.knowledgeBase.sampleQaCount })
                : t("templates.knowledgeEmpty", { name: template.knowledgeBase.name })}
            </Descriptions.Item>
          ) : null}
          {template.app?.handover ? <Descriptions.Item label={t("templates.fields.handover")}>{t("templates.handoverOn")}</Descriptions.Item> : null}
          {template.app?.database ? <Descriptions.Item label={t("templates.fields.database")}>{t("templates.databaseNeeded")}</Descriptions.Item> : null}
          {template.workflow?.cron ? (
            <Descriptions.Item label={t("templates.fields.schedule")}>
              <Typography.Text code>{template.workflow.cron}</Typography.Text> (UTC)
            </Descriptions.Item>
          ) : null}
          {template.nextStep ? <Descriptions.Item label={t("templates.fields.nextStep")}>{template.nextStep}</Descriptions.Item> : null}
        </Descriptions>
        {template.app ? (
          <>
            <Typography.Title level={5}>{t("templates.fields.opening")}</Typography.Title>
            <div className="pl-template-detail__prompt">{template.app.openingIntroduction}</div>
            <Typography.Title level={5}>{t("templates.fields.prompt")}</Typography.Title>
            <div className="pl-template-detail__prompt" data-testid="template-prompt">
              {template.app.settingsPrompt}
            </div>
          </>
        ) : null}
        {template.workflow ? (
          <>
            <Typography.Title level={5}>{t("templates.fields.nodes")}</Typography.Title>
            <Timeline items={template.workflow.nodes.map((node) => ({ children: `${node.name} · ${node.type}` }))} />
          </>
        ) : null}
      </Card>
    </div>
  );
}
