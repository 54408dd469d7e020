import { Alert, Col, Flex, Input, Row, Segmented, Select, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { EmptyState } from "../../components/empty-state";
import { endpoints } from "../../lib/api/endpoints";
import { useSpaceQuery } from "../../lib/api/query";
import { storeEndpoints } from "../../lib/api/store";
import { StoreCard } from "./store-card";
import { STORE_KEYS, useStoreActions } from "./use-store-actions";
import "./store.css";

/** Longest search text the server takes (store/service/listings.ts). */
export const STORE_QUERY_MAX = 100;

/**
 * /home: the store. Published apps by category with search and sorting; guests browse and try
 * them, signed-in users also thumb, collect and copy them into their space.
 */
export function StorePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const category = params.get("category") ?? "";
  const sort = params.get("sort") === "recent" ? "recent" : "popular";
  const actions = useStoreActions();
  const categories = useSpaceQuery({ key: ["app-categories"], fetch: (signal) => endpoints.appCatalogue.categories({ signal }), staleTime: Infinity });
  const tooLong = [...q].length > STORE_QUERY_MAX;
  const list = useSpaceQuery({
    key: [...STORE_KEYS.list, q, category, sort],
    fetch: (signal) => storeEndpoints.list({ ...(q ? { q } : {}), ...(category ? { category } : {}), sort }, { signal }),
    enabled: !tooLong,
    keepPreviousPage: true,
  });
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const categoryName = (id: string) => categories.data?.find((entry) => entry.id === id)?.name;

  return (
    <div className="pl-store" data-testid="store-page">
      <Flex vertical gap={4} className="pl-store__head">
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("store.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("store.subtitle")}</Typography.Text>
      </Flex>
      <Flex gap={12} wrap align="center" className="pl-store__filters">
        <Input.Search
          key={q}
          defaultValue={q}
          allowClear
          placeholder={t("store.searchPlaceholder")}
          onSearch={(value) => set("q", value.trim())}
          style={{ maxWidth: 360 }}
          data-testid="store-search"
        />
        <Segmented
          value={category}
          onChange={(value) => set("category", String(value))}
          options={[{ value: "", label: t("store.allCategories") }, ...(categories.data ?? []).map((entry) => ({ value: entry.id, label: entry.name }))]}
          data-testid="store-categories"
        />
        <Select
          value={sort}
          onChange={(value) => set("sort", value === "popular" ? "" : value)}
          options={[
            { value: "popular", label: t("store.sortPopular") },
            { value: "recent", label: t("store.sortRecent") },
          ]}
          style={{ width: 160 }}
          data-testid="store-sort"
        />
      </Flex>
      {tooLong ? <Alert type="warning" showIcon message={t("store.queryTooLong", { max: STORE_QUERY_MAX })} data-testid="store-query-too-long" /> : null}
      {list.isPending && !tooLong ? <Skeleton active /> : null}
      {list.data && list.data.items.length === 0 ? <EmptyState title={q ? t("store.noMatch", { q }) : t("store.empty")} data-testid="store-empty" /> : null}
      <Row gutter={[16, 16]} data-testid="store-list">
        {(list.data?.items ?? []).map((app) => (
          <Col key={app.code} xs={24} sm={12} lg={8} xl={6}>
            <StoreCard
              app={app}
              categoryName={categoryName(app.category)}
              onTry={actions.onTry}
              onThumb={(item) => void actions.onThumb(item)}
              onCollect={(item) => void actions.onCollect(item)}
              onCopy={actions.signedIn ? actions.onCopy : undefined}
            />
          </Col>
        ))}
      </Row>
    </div>
  );
}
