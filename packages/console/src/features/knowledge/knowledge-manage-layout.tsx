import { Button, Result, Skeleton, Tabs, Typography } from "antd";
import { Suspense, useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation, useNavigate, useOutletContext, useSearchParams } from "react-router";
import { KNOWLEDGE_CHILDREN, PATHS } from "../../lib/paths";
import { PageHeader } from "../../components/page-header";
import { KNOWLEDGE_BASES, knowledgeEndpoints, type KnowledgeBase } from "../../lib/api/knowledge";
import { setSpaceData, useSpaceQuery } from "../../lib/api/query";
import "./knowledge.css";

/** One tab of knowledge management. */
export type KnowledgeTab = (typeof KNOWLEDGE_CHILDREN)[number];

/** The address of a knowledge-management tab for a knowledge base (the id rides along in `?id=`). */
export function managePath(tab: KnowledgeTab, knowledgeBaseId: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ id: knowledgeBaseId, ...extra });
  return `${PATHS.knowledgeManage}/${tab}?${query.toString()}`;
}

/** What every knowledge-management tab gets from the layout. */
export interface KnowledgeContext {
  base: KnowledgeBase;
  /** Reads the knowledge base again (its totals move as files are imported). */
  reload: () => Promise<void>;
  /** Replaces the shown knowledge base after an edit. */
  setBase: (base: KnowledgeBase) => void;
}

const panelSkeleton = (
  <div className="pl-card pl-kb-panel">
    <Skeleton active paragraph={{ rows: 6 }} />
  </div>
);

/** The knowledge base the current tab works on. */
export function useKnowledgeBase(): KnowledgeContext {
  return useOutletContext<KnowledgeContext>();
}

/** /console/knowledge/knowledgeManage with no tab: the overview, keeping the query. */
export function KnowledgeManageIndex() {
  const { search } = useLocation();
  return <Navigate to={`${PATHS.knowledgeManage}/${KNOWLEDGE_CHILDREN[0]}${search}`} replace />;
}

/**
 * /console/knowledge/knowledgeManage/*?id=kb_…: the knowledge base's name, the tabs as
 * links that keep `?id=`, and the tab below. Loads the knowledge base once for every tab.
 */
export function KnowledgeManageLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const key = useMemo(() => [...KNOWLEDGE_BASES, id], [id]);
  const query = useSpaceQuery({ key, enabled: id !== "", fetch: (signal) => knowledgeEndpoints.get(id, { silent: true, signal }) });
  const base = query.data;
  // A base shown stays on a network failure while reading it again; a refusal means it is gone.
  const state: "loading" | "ready" | "missing" = query.isError && (!base || query.error.failure.kind === "http") ? "missing" : base ? "ready" : "loading";
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  const setBase = useCallback((next: KnowledgeBase) => setSpaceData<KnowledgeBase>(key, () => next), [key]);

  const active = KNOWLEDGE_CHILDREN.find((tab) => pathname === `${PATHS.knowledgeManage}/${tab}`);
  const context = useMemo<KnowledgeContext | undefined>(() => (base ? { base, reload, setBase } : undefined), [base, reload, setBase]);

  if (!id || state === "missing") {
    return (
      <Result
        status="404"
        title={t("knowledge.manage.missingTitle")}
        subTitle={t(id ? "knowledge.manage.missing" : "knowledge.manage.noneChosen")}
        extra={
          <Button type="primary" onClick={() => navigate(PATHS.knowledge)} data-testid="knowledge-back">
            {t("knowledge.manage.back")}
          </Button>
        }
        data-testid="knowledge-missing"
      />
    );
  }

  return (
    <div className="pl-kb-manage" data-testid="knowledge-manage">
      <PageHeader
        breadcrumb={[{ label: t("knowledge.list.title"), to: PATHS.knowledge }, { label: base?.name ?? t("knowledge.manage.title") }]}
        title={<span data-testid="knowledge-base-name">{base?.name ?? t("knowledge.manage.title")}</span>}
        subtitle={base?.description ? <Typography.Text type="secondary">{base.description}</Typography.Text> : undefined}
      />
      <Tabs
        className="pl-section__tabs"
        activeKey={active ?? ""}
        onChange={(key) => navigate(managePath(key as KnowledgeTab, id))}
        items={KNOWLEDGE_CHILDREN.map((tab) => ({
          key: tab,
          label: <span data-testid={`tab-${tab}`}>{tab === "evaluation" ? t("evaluation.tab") : t(`knowledge.tabs.${tab}`)}</span>,
        }))}
      />
      {context ? (
        <Suspense fallback={panelSkeleton}>
          <Outlet context={context} />
        </Suspense>
      ) : (
        panelSkeleton
      )}
    </div>
  );
}
