import { AppstoreAddOutlined, PlusOutlined, ReloadOutlined } from "@ant-design/icons";
import { Button, Col, Row, Skeleton } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { invalidateSpace, setSpaceData, useSpaceQuery } from "../../lib/api/query";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { AppCard, type AppCardApp } from "../../components/app-card";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { ExportButton, ImportButton } from "../../components/portable-transfer";
import { useAppOptions } from "./use-app-options";
import "./apps.css";

/** Every app key of the space; the list page is below it (see lib/api/query). */
export const APPS = ["apps"];
const APPS_LIST = [...APPS, "list"];
type AppsPage = NonNullable<Awaited<ReturnType<typeof endpoints.apps.list>> & { ok: true }>["data"];

/** Where the editor of an app lives. */
export const editorPath = (appId: string) => `${PATHS.agent}?id=${encodeURIComponent(appId)}`;
/** Where an app's chat page lives. */
export const chatPath = (code: string) => `/app/${encodeURIComponent(code)}`;

/**
 * /console/agents: the space's apps as cards, with thumb/collect (counts move by one), copy
 * and delete. Deleting selects the neighbour the server names, or goes home when none remain.
 */
export function AppsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { categories } = useAppOptions();
  const query = useSpaceQuery({ key: APPS_LIST, fetch: (signal) => endpoints.apps.list(1, { signal }) });
  const apps: AppCardApp[] = useMemo(() => query.data?.items ?? [], [query.data]);
  const loading = query.isFetching;
  const loadFailed = query.isError;
  const load = () => query.refetch();
  const [busy, setBusy] = useState<string>();
  const selected = params.get("selected") ?? undefined;

  // Bring the selected card into view (after a delete, the neighbour).
  useEffect(() => {
    if (!selected) return;
    const code = apps.find((app) => app.id === selected)?.code;
    if (code) document.querySelector(`[data-testid="app-card-${CSS.escape(code)}"]`)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [selected, apps]);

  const categoryNames = useMemo(() => new Map(categories.map((category) => [category.id as string, category.name])), [categories]);
  const setApps = (update: (current: AppCardApp[]) => AppCardApp[]) =>
    setSpaceData<AppsPage>(APPS_LIST, (page) => page && { ...page, items: update(page.items) as AppsPage["items"] });
  const replace = (id: string, change: Partial<AppCardApp>) => setApps((current) => current.map((app) => (app.id === id ? { ...app, ...change } : app)));

  const thumb = async (app: AppCardApp) => {
    const result = await endpoints.apps.thumb(app.id, !app.thumbed);
    if (result.ok) replace(app.id, result.data);
  };
  const collect = async (app: AppCardApp) => {
    const result = await endpoints.apps.collect(app.id, !app.collected);
    if (result.ok) replace(app.id, result.data);
  };
  const copy = async (app: AppCardApp) => {
    setBusy(app.id);
    try {
      const result = await endpoints.apps.copy(app.id);
      if (!result.ok) return;
      // The list shows summaries; keep the copy's card like the others.
      setApps((current) => [{ ...result.data, defaultModel: undefined }, ...current]);
      void invalidateSpace(APPS);
      setParams({ selected: result.data.id }, { replace: true });
      feedback.success(t("apps.copied", { name: result.data.name }));
    } finally {
      setBusy(undefined);
    }
  };
  const remove = async (app: AppCardApp) => {
    setBusy(app.id);
    try {
      const result = await endpoints.apps.remove(app.id);
      if (!result.ok) return;
      feedback.success(t("apps.deleted", { name: app.name }));
      const remaining = apps.filter((item) => item.id !== app.id);
      setApps(() => remaining);
      void invalidateSpace(APPS);
      // Spec §4: select the neighbour, or go home when none remain.
      if (result.data.nextAppId && remaining.length > 0) setParams({ selected: result.data.nextAppId }, { replace: true });
      else navigate(PATHS.home);
    } finally {
      setBusy(undefined);
    }
  };

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PATHS.createApp)} data-testid="app-create">
      {t("apps.create")}
    </Button>
  );

  return (
    <div className="pl-apps">
      <PageHeader
        title={t("apps.title")}
        subtitle={t("apps.subtitle")}
        extra={
          <>
            <Button icon={<ReloadOutlined />} onClick={() => void load()} data-testid="apps-refresh">
              {t("common.refresh")}
            </Button>
            <ImportButton onImported={() => void invalidateSpace(APPS)} />
            <ExportButton request={{ space: true }} data-testid="portable-export-space" />
            {createButton}
          </>
        }
      />
      {loading && apps.length === 0 ? (
        <Row gutter={[16, 16]}>
          {[0, 1, 2].map((index) => (
            <Col key={index} xs={24} md={12} xl={8}>
              <div className="pl-card pl-apps__skeleton">
                <Skeleton avatar active paragraph={{ rows: 2 }} />
              </div>
            </Col>
          ))}
        </Row>
      ) : loadFailed && apps.length === 0 ? (
        <div className="pl-card">
          <EmptyState
            title={t("apps.loadFailedTitle")}
            description={t("apps.loadFailedDescription")}
            action={
              <Button onClick={() => void load()} data-testid="apps-retry">
                {t("common.retry")}
              </Button>
            }
            data-testid="apps-load-failed"
          />
        </div>
      ) : apps.length === 0 ? (
        <div className="pl-card">
          <EmptyState
            icon={<AppstoreAddOutlined className="pl-empty__glyph" />}
            title={t("apps.emptyTitle")}
            description={t("apps.emptyDescription")}
            action={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PATHS.createApp)} data-testid="app-create-empty">
                {t("apps.create")}
              </Button>
            }
            data-testid="apps-empty"
          />
        </div>
      ) : (
        <Row gutter={[16, 16]} data-testid="apps-list">
          {apps.map((app) => (
            <Col key={app.id} xs={24} md={12} xl={8}>
              <AppCard
                app={app}
                categoryName={categoryNames.get(app.category)}
                selected={app.id === selected}
                busy={busy === app.id}
                onOpen={(item) => navigate(editorPath(item.id))}
                onChat={(item) => navigate(chatPath(item.code))}
                onThumb={(item) => void thumb(item)}
                onCollect={(item) => void collect(item)}
                onCopy={(item) => void copy(item)}
                onDelete={(item) => remove(item)}
                exportAction={<ExportButton compact request={{ appIds: [app.id] }} data-testid={`app-export-${app.code}`} />}
              />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
