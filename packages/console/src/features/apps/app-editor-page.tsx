import { MessageOutlined, SaveOutlined } from "@ant-design/icons";
import type { components } from "@parley/sdk";
import {
  Button,
  Card,
  Checkbox,
  Col,
  Divider,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Result,
  Row,
  Select,
  Skeleton,
  Slider,
  Switch,
  Tabs,
  Tag,
  Typography,
} from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { endpoints } from "../../lib/api/endpoints";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { AppAvatar } from "../../components/app-avatar";
import { PageHeader } from "../../components/page-header";
import { PublishButton } from "../store/publish-button";
import { APP_LIMITS, appRules, guidingQuestionsOf } from "./app-rules";
import { CHAT_KEYS } from "../chat/use-chat";
import { APPS, chatPath } from "./apps-page";
import { ruleOf, showServerError } from "./form-helpers";
import { KnowledgeSettingsSection } from "./knowledge-settings-section";
import { VoiceSettingsSection } from "../voice/voice-settings-section";
import { PreviewPane } from "./preview-pane";
import { blockedByRateLimit, RateLimitTab } from "./rate-limit-tab";
import { modelOptions, useAppOptions } from "./use-app-options";
import { NotifyMemberSelect } from "../team/notify-member-select";
import { DatabaseSettingsSection } from "../database/app-database-settings";
import "./apps.css";
import { AssetUrlInput } from "../../components/asset-url-input";

type Schemas = components["schemas"];
type AppSeniorDetail = Schemas["AppSeniorDetail"];
type AdvancedConfig = Schemas["AdvancedConfig"];

/** The editor form: the app's settings plus the humanization and handover parts of its advanced config. */
export type EditorValues = Schemas["UpdateAppRequest"] & {
  humanization: AdvancedConfig["humanization"];
  manualService: Pick<AdvancedConfig["manualService"], "defaultReply" | "replyMode" | "delayMinutes" | "aiTagging" | "notifyMemberIds"> & {
    keywords: string[];
    intents: string[];
    notify: Pick<AdvancedConfig["manualService"]["notify"], "email" | "sms" | "wechat">;
  };
  databaseEnabled: boolean;
  databaseConfirmWrites: boolean;
};

type TabKey = "basic" | "advanced" | "rateLimit";

const BASIC_FIELDS = new Set([
  "name",
  "description",
  "avatarUrl",
  "category",
  "isPublic",
  "openingIntroduction",
  "settingsPrompt",
  "defaultModel",
  "optionalModels",
  "temperature",
  "memoryTurns",
  "memoryRetentionMinutes",
  "bottomSlogan",
]);

function toValues(app: AppSeniorDetail): EditorValues {
  const { manualService, humanization, database } = app.advancedConfig;
  return {
    name: app.name,
    description: app.description,
    avatarUrl: app.avatarUrl,
    category: app.category,
    isPublic: app.isPublic,
    openingIntroduction: app.openingIntroduction,
    settingsPrompt: app.settingsPrompt,
    defaultModel: app.defaultModel,
    optionalModels: app.optionalModels.filter((model) => model !== app.defaultModel),
    temperature: app.temperature,
    memoryTurns: app.memoryTurns,
    memoryRetentionMinutes: app.memoryRetentionMinutes,
    bottomSlogan: app.bottomSlogan ?? "",
    plugins: app.plugins,
    multiRoundThinking: app.multiRoundThinking,
    maxRounds: app.maxRounds,
    pluginStrategy: app.pluginStrategy,
    knowledgeBaseIds: app.knowledgeBaseIds,
    databaseIds: app.databaseIds,
    retrievalMode: app.retrievalMode,
    retrievalLength: app.retrievalLength,
    similarityThreshold: app.similarityThreshold,
    semanticCount: app.semanticCount,
    fullTextCount: app.fullTextCount,
    rerankModel: app.rerankModel,
    voiceModel: app.voiceModel,
    voice: app.voice,
    rerankThreshold: app.rerankThreshold,
    noHitStrategy: app.noHitStrategy,
    noHitText: app.noHitText ?? "",
    citationEnabled: app.citationEnabled,
    citationThreshold: app.citationThreshold,
    humanization: { ...humanization, mergeDelaySeconds: humanization.mergeDelaySeconds ?? null },
    manualService: {
      keywords: manualService.triggers.filter((trigger) => trigger.type === "keyword").map((trigger) => trigger.content),
      intents: manualService.triggers.filter((trigger) => trigger.type === "intent").map((trigger) => trigger.content),
      defaultReply: manualService.defaultReply ?? "",
      replyMode: manualService.replyMode,
      delayMinutes: manualService.delayMinutes ?? null,
      notify: { email: manualService.notify.email, sms: manualService.notify.sms, wechat: manualService.notify.wechat },
      aiTagging: manualService.aiTagging,
      notifyMemberIds: manualService.notifyMemberIds,
    },
    databaseEnabled: database.enabled,
    databaseConfirmWrites: database.confirmWrites !== false,
  };
}

function toRequests(values: EditorValues, current: AdvancedConfig): { app: Schemas["UpdateAppRequest"]; advanced: AdvancedConfig } {
  const { humanization, manualService, databaseEnabled, databaseConfirmWrites, ...app } = values;
  const text = (value: string | null | undefined) => (value ?? "").trim();
  return {
    app: {
      ...app,
      name: text(app.name),
      description: text(app.description),
      avatarUrl: text(app.avatarUrl),
      openingIntroduction: text(app.openingIntroduction),
      settingsPrompt: text(app.settingsPrompt),
      bottomSlogan: text(app.bottomSlogan) || null,
      noHitText: text(app.noHitText) || null,
      // A cleared select leaves undefined, which a PATCH would read as "unchanged".
      rerankModel: app.rerankModel || null,
      voiceModel: app.voiceModel || null,
      voice: app.voice || null,
      optionalModels: [app.defaultModel ?? "", ...(app.optionalModels ?? [])].filter((model, index, all) => model && all.indexOf(model) === index),
    },
    advanced: {
      humanization: { ...humanization, mergeDelaySeconds: humanization.mergeReply ? humanization.mergeDelaySeconds : (humanization.mergeDelaySeconds ?? null) },
      manualService: {
        ...current.manualService,
        triggers: [
          ...manualService.keywords.map((content) => ({ type: "keyword" as const, content: content.trim() })),
          ...manualService.intents.map((content) => ({ type: "intent" as const, content: content.trim() })),
        ].filter((trigger) => trigger.content),
        defaultReply: text(manualService.defaultReply) || null,
        replyMode: manualService.replyMode,
        delayMinutes: manualService.replyMode === "delayed" ? manualService.delayMinutes : (manualService.delayMinutes ?? null),
        notify: { ...current.manualService.notify, ...manualService.notify },
        aiTagging: manualService.aiTagging,
        notifyMemberIds: manualService.notifyMemberIds ?? current.manualService.notifyMemberIds,
      },
      database: {
        ...current.database,
        enabled: databaseEnabled,
        confirmWrites: databaseConfirmWrites,
        databaseIds: app.databaseIds ?? current.database.databaseIds,
      },
    },
  };
}

/** /console/agent?id=…: the app editor with Basic, Advanced and Rate Limit tabs, Save, and a live preview. */
export function AppEditorPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const appId = params.get("id") ?? "";
  const [form] = Form.useForm<EditorValues>();
  const { categories, models } = useAppOptions();
  const seniorKey = [...APPS, appId, "senior"];
  const senior = useSpaceQuery({ key: seniorKey, fetch: (signal) => endpoints.apps.senior(appId, { silent: true, signal }), enabled: appId !== "" });
  const app = senior.data;
  const state = !appId || (senior.isError && !app) ? "missing" : app ? "ready" : "loading";
  const [tab, setTab] = useState<TabKey>("basic");
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [rateLimitDirty, setRateLimitDirty] = useState(false);

  // The form starts from each answer the server gives (the load or a save).
  useEffect(() => {
    if (!app) return;
    form.setFieldsValue(toValues(app));
    setDirty(false);
  }, [app, form]);

  const builtinPlugins = useSpaceQuery({
    key: ["plugins", "builtin", "app-editor", i18n.language],
    fetch: (signal) => endpoints.plugins.builtin({ silent: true, signal }),
  });
  const customPlugins = useSpaceQuery({ key: ["plugins", "app-editor"], fetch: (signal) => endpoints.plugins.list({ silent: true, signal }) });
  const pluginOptions = useMemo(() => {
    if (builtinPlugins.isPending || customPlugins.isPending) return [];
    const groups = [];
    if (builtinPlugins.data)
      groups.push({ label: t("apps.advanced.builtinPlugins"), options: builtinPlugins.data.map((plugin) => ({ value: plugin.code, label: plugin.name })) });
    if (customPlugins.data)
      groups.push({ label: t("apps.advanced.customPlugins"), options: customPlugins.data.map((plugin) => ({ value: plugin.code, label: plugin.name })) });
    return groups;
  }, [t, builtinPlugins.isPending, builtinPlugins.data, customPlugins.isPending, customPlugins.data]);

  const defaultModel = Form.useWatch("defaultModel", form);
  const onRateLimitDirty = useCallback((value: boolean) => setRateLimitDirty(value), []);
  const blocked = () => blockedByRateLimit(rateLimitDirty, t("apps.rateLimit.unsaved"));

  const save = async () => {
    if (!app || blocked()) return;
    let values: EditorValues;
    try {
      values = await form.validateFields();
    } catch (error) {
      const first = (error as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0]?.name;
      if (first) setTab(BASIC_FIELDS.has(String(first[0])) ? "basic" : "advanced");
      return;
    }
    setSaving(true);
    try {
      const { app: body, advanced } = toRequests(values, app.advancedConfig);
      const updated = await endpoints.apps.update(app.id, body);
      if (!updated.ok) {
        if (showServerError(form, updated.error)) setTab(BASIC_FIELDS.has(updated.error.field?.split(".")[0] ?? "") ? "basic" : "advanced");
        return;
      }
      const config = await endpoints.apps.saveAdvancedConfig(app.id, advanced);
      if (!config.ok) {
        if (showServerError(form, config.error)) setTab("advanced");
        return;
      }
      const next: AppSeniorDetail = { ...updated.data, advancedConfig: config.data };
      setSpaceData<AppSeniorDetail>(seniorKey, () => next);
      // The preview reloads the opening text and models it shows.
      void invalidateSpace(APPS, CHAT_KEYS.app(next.code));
      feedback.success(t("apps.saved"));
    } finally {
      setSaving(false);
    }
  };

  if (state === "missing") {
    return (
      <Result
        status="404"
        title={t("apps.editor.notFoundTitle")}
        subTitle={t("apps.editor.notFound")}
        extra={
          <Button type="primary" onClick={() => navigate(PATHS.agents)} data-testid="editor-back">
            {t("apps.editor.back")}
          </Button>
        }
        data-testid="app-editor-missing"
      />
    );
  }

  return (
    <div data-testid="app-editor">
      <PageHeader
        title={app ? app.name : t("apps.editor.title")}
        subtitle={
          app ? (
            <Typography.Text type="secondary" copyable={{ text: app.code }}>
              {t("apps.editor.code", { code: app.code })}
            </Typography.Text>
          ) : undefined
        }
        breadcrumb={[{ label: t("apps.title"), to: PATHS.agents }, { label: t("apps.editor.title") }]}
        extra={
          <>
            {app ? (
              <Button icon={<MessageOutlined />} onClick={() => !blocked() && navigate(chatPath(app.code))} data-testid="editor-open-chat">
                {t("apps.editor.openChat")}
              </Button>
            ) : null}
            {app ? <PublishButton appId={app.id} appName={app.name} /> : null}
            <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!app} onClick={() => void save()} data-testid="app-save">
              {t("common.save")}
            </Button>
          </>
        }
      />
      <div className="pl-editor">
        <Card className="pl-editor__card pl-editor__main">
          {state === "loading" ? <Skeleton active paragraph={{ rows: 10 }} /> : null}
          {/* The form stays mounted while loading so setFieldsValue always reaches it. */}
          <div hidden={state === "loading"}>
            <Form<EditorValues> form={form} layout="vertical" onValuesChange={() => setDirty(true)} data-testid="app-editor-form">
              <Tabs
                className="pl-editor__tabs"
                activeKey={tab}
                onChange={(key) => {
                  if (tab === "rateLimit" && blocked()) return;
                  setTab(key as TabKey);
                }}
                items={[
                  {
                    key: "basic",
                    label: <span data-testid="editor-tab-basic">{t("apps.editor.tabs.basic")}</span>,
                    forceRender: true,
                    children: (
                      <BasicTab
                        categories={categories.map((category) => ({ value: category.id, label: category.name }))}
                        modelChoices={modelOptions(models, t("apps.offlineModel"), [...(app?.optionalModels ?? [])])}
                        defaultModel={defaultModel}
                      />
                    ),
                  },
                  {
                    key: "advanced",
                    label: <span data-testid="editor-tab-advanced">{t("apps.editor.tabs.advanced")}</span>,
                    forceRender: true,
                    children: <AdvancedTab pluginOptions={pluginOptions} />,
                  },
                  {
                    key: "rateLimit",
                    label: <span data-testid="editor-tab-rate-limit">{t("apps.editor.tabs.rateLimit")}</span>,
                    children: app ? <RateLimitTab appId={app.id} onDirtyChange={onRateLimitDirty} /> : null,
                  },
                ]}
              />
            </Form>
          </div>
        </Card>
        {app ? (
          <PreviewPane appCode={app.code} unsaved={dirty} />
        ) : (
          <div className="pl-editor__preview">
            <Skeleton active />
          </div>
        )}
      </div>
    </div>
  );
}

function BasicTab({
  categories,
  modelChoices,
  defaultModel,
}: {
  categories: { value: string; label: string }[];
  modelChoices: { value: string; label: string }[];
  defaultModel?: string;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const opening = Form.useWatch("openingIntroduction", form) ?? "";
  const avatarUrl = Form.useWatch("avatarUrl", form) ?? "";
  const name = Form.useWatch("name", form) ?? "";
  const questions = guidingQuestionsOf(opening);
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Form.Item name="name" label={t("apps.fields.name")} required rules={[ruleOf(appRules.name)]}>
            <Input maxLength={APP_LIMITS.nameMax} showCount data-testid="app-name" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="category" label={t("apps.fields.category")} required rules={[ruleOf(appRules.category)]}>
            <Select options={categories} data-testid="app-category" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={t("apps.fields.description")} required rules={[ruleOf(appRules.description)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={APP_LIMITS.descriptionMax} showCount data-testid="app-description" />
      </Form.Item>
      <Form.Item label={t("apps.fields.avatar")} required extra={t("apps.hints.avatarPublic")}>
        <div className="pl-avatar-field">
          <AppAvatar name={name || "?"} src={avatarUrl} size={40} />
          <Form.Item
            name="avatarUrl"
            noStyle
            dependencies={["isPublic"]}
            rules={[({ getFieldValue }) => ruleOf((value: string) => appRules.avatarUrl(value, getFieldValue("isPublic") === true))]}
          >
            <AssetUrlInput maxLength={APP_LIMITS.avatarUrlMax} data-testid="app-avatar" />
          </Form.Item>
        </div>
      </Form.Item>
      <Form.Item name="isPublic" label={t("apps.fields.public")} valuePropName="checked" extra={t("apps.hints.public")}>
        <Switch data-testid="app-public" />
      </Form.Item>
      <Form.Item
        name="openingIntroduction"
        label={t("apps.fields.opening")}
        required
        rules={[ruleOf(appRules.openingIntroduction)]}
        extra={
          <>
            {t("apps.hints.opening")}
            {questions.length > 0 ? (
              <Flex gap={6} wrap className="pl-hint-questions">
                {questions.map((question) => (
                  <Tag key={question} color="processing">
                    {question}
                  </Tag>
                ))}
              </Flex>
            ) : null}
          </>
        }
      >
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={APP_LIMITS.openingIntroductionMax} data-testid="app-opening" />
      </Form.Item>
      <Form.Item name="settingsPrompt" label={t("apps.fields.prompt")} required rules={[ruleOf(appRules.settingsPrompt)]} extra={t("apps.hints.prompt")}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} data-testid="app-prompt" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Form.Item name="defaultModel" label={t("apps.fields.defaultModel")} required rules={[ruleOf(appRules.defaultModel)]}>
            <Select showSearch options={modelChoices} data-testid="app-model" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="optionalModels" label={t("apps.fields.optionalModels")} extra={t("apps.hints.optionalModels")}>
            <Select mode="multiple" allowClear options={modelChoices.filter((option) => option.value !== defaultModel)} data-testid="app-optional-models" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="temperature" label={t("apps.fields.temperature")} extra={t("apps.hints.temperature")}>
        <Slider min={0} max={2} step={0.1} marks={{ 0: "0", 1: "1", 2: "2" }} data-testid="app-temperature" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="memoryTurns" label={t("apps.fields.memoryTurns")}>
            <InputNumber
              min={APP_LIMITS.memoryTurns.min}
              max={APP_LIMITS.memoryTurns.max}
              precision={0}
              style={{ width: "100%" }}
              data-testid="app-memory-turns"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="memoryRetentionMinutes" label={t("apps.fields.memoryMinutes")}>
            <InputNumber
              min={APP_LIMITS.memoryRetentionMinutes.min}
              max={APP_LIMITS.memoryRetentionMinutes.max}
              precision={0}
              style={{ width: "100%" }}
              data-testid="app-memory-minutes"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="bottomSlogan" label={t("apps.fields.slogan")} rules={[ruleOf(appRules.bottomSlogan)]}>
            <Input maxLength={APP_LIMITS.bottomSloganMax} showCount data-testid="app-slogan" />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}

function AdvancedTab({ pluginOptions }: { pluginOptions: { label: string; options: { value: string; label: string }[] }[] }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const multiRound = Form.useWatch("multiRoundThinking", form);
  const mergeReply = Form.useWatch(["humanization", "mergeReply"], form);
  const replyMode = Form.useWatch(["manualService", "replyMode"], form);
  return (
    <>
      <Typography.Title level={5} className="pl-editor__section">
        {t("apps.advanced.plugins")}
      </Typography.Title>
      <Form.Item name="plugins" label={t("apps.advanced.pluginList")} extra={t("apps.advanced.pluginHint")}>
        <Select mode="multiple" allowClear options={pluginOptions} placeholder={t("apps.advanced.pluginPlaceholder")} data-testid="app-plugins" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="multiRoundThinking" label={t("apps.advanced.multiRound")} valuePropName="checked">
            <Switch data-testid="app-multi-round" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="maxRounds" label={t("apps.advanced.maxRounds")} hidden={!multiRound}>
            <InputNumber min={APP_LIMITS.maxRounds.min} max={APP_LIMITS.maxRounds.max} precision={0} data-testid="app-max-rounds" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="pluginStrategy" label={t("apps.advanced.strategy")}>
        <Radio.Group
          options={(["knowledge_first", "plugin_first", "both"] as const).map((value) => ({ value, label: t(`apps.advanced.strategies.${value}`) }))}
          data-testid="app-plugin-strategy"
        />
      </Form.Item>

      <Divider />
      <Typography.Title level={5} className="pl-editor__section">
        {t("apps.advanced.humanization")}
      </Typography.Title>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item name={["humanization", "splitReply"]} label={t("apps.advanced.splitReply")} valuePropName="checked">
            <Switch data-testid="app-split-reply" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={["humanization", "mergeReply"]} label={t("apps.advanced.mergeReply")} valuePropName="checked">
            <Switch data-testid="app-merge-reply" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={["humanization", "mergeDelaySeconds"]}
            label={t("apps.advanced.mergeDelay")}
            dependencies={[["humanization", "mergeReply"]]}
            rules={[
              ({ getFieldValue }) => ruleOf((value: number | null) => appRules.mergeDelay(getFieldValue(["humanization", "mergeReply"]) === true, value)),
            ]}
            required={mergeReply === true}
          >
            <InputNumber min={0} max={APP_LIMITS.humanizationDelayMax} precision={0} style={{ width: "100%" }} data-testid="app-merge-delay" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={["humanization", "delayReplySeconds"]} label={t("apps.advanced.delayReply")}>
            <InputNumber min={0} max={APP_LIMITS.humanizationDelayMax} precision={0} style={{ width: "100%" }} data-testid="app-delay-reply" />
          </Form.Item>
        </Col>
      </Row>

      <Divider />
      <Typography.Title level={5} className="pl-editor__section">
        {t("apps.advanced.manual")}
      </Typography.Title>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name={["manualService", "keywords"]} label={t("apps.advanced.keywords")} extra={t("apps.advanced.keywordsHint")}>
            <Select mode="tags" open={false} suffixIcon={null} data-testid="app-manual-keywords" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={["manualService", "intents"]} label={t("apps.advanced.intents")} extra={t("apps.advanced.intentsHint")}>
            <Select mode="tags" open={false} suffixIcon={null} data-testid="app-manual-intents" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name={["manualService", "defaultReply"]} label={t("apps.advanced.defaultReply")}>
        <Input maxLength={500} data-testid="app-manual-reply" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={14}>
          <Form.Item name={["manualService", "replyMode"]} label={t("apps.advanced.replyMode")}>
            <Radio.Group options={(["none", "continue", "delayed"] as const).map((value) => ({ value, label: t(`apps.advanced.replyModes.${value}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item
            name={["manualService", "delayMinutes"]}
            label={t("apps.advanced.delayMinutes")}
            hidden={replyMode !== "delayed"}
            rules={[{ required: replyMode === "delayed", message: t("apps.validation.delayMinutesRequired") }]}
          >
            <InputNumber min={1} max={1440} precision={0} data-testid="app-manual-delay" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t("apps.advanced.notify")} extra={t("apps.advanced.notifyWechatHelp")}>
        <Flex gap={16} wrap>
          <Form.Item name={["manualService", "notify", "email"]} valuePropName="checked" noStyle>
            <Checkbox>{t("apps.advanced.notifyEmail")}</Checkbox>
          </Form.Item>
          <Form.Item name={["manualService", "notify", "sms"]} valuePropName="checked" noStyle>
            <Checkbox>{t("apps.advanced.notifySms")}</Checkbox>
          </Form.Item>
          <Form.Item name={["manualService", "notify", "wechat"]} valuePropName="checked" noStyle>
            <Checkbox data-testid="app-notify-wechat">{t("apps.advanced.notifyWechat")}</Checkbox>
          </Form.Item>
          <Form.Item name={["manualService", "aiTagging"]} valuePropName="checked" noStyle>
            <Checkbox>{t("apps.advanced.aiTagging")}</Checkbox>
          </Form.Item>
        </Flex>
      </Form.Item>
      <Form.Item name={["manualService", "notifyMemberIds"]} label={t("teamMembers.notify.label")} extra={t("teamMembers.notify.hint")}>
        <NotifyMemberSelect />
      </Form.Item>

      <Divider />
      <KnowledgeSettingsSection />
      <Divider />
      <VoiceSettingsSection />
      <Divider />
      <Form.Item name="databaseEnabled" label={t("apps.advanced.database")} valuePropName="checked" extra={t("apps.advanced.databaseHint")}>
        <Switch />
      </Form.Item>
      <DatabaseSettingsSection />
      <Form.Item name="databaseConfirmWrites" label={t("apps.advanced.confirmWrites")} valuePropName="checked" extra={t("apps.advanced.confirmWritesHint")}>
        <Switch data-testid="app-database-confirm-writes" />
      </Form.Item>
    </>
  );
}
