import { SearchOutlined } from "@ant-design/icons";
import { AutoComplete, Input, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSession } from "../../lib/api/session";
import { type SearchHit, storeEndpoints } from "../../lib/api/store";
import { PATHS } from "../../lib/paths";
import { STORE_QUERY_MAX } from "./store-page";

const kindLabel: Record<SearchHit["kind"], string> = { app: "store.kindApp", store_app: "store.kindStoreApp", template: "store.kindTemplate" };

/**
 * The top bar's search: signed in, it suggests the user's apps, store apps and templates as
 * they type (GET /api/v1/search); Enter, or a guest's search, opens the store filtered by the text.
 */
export function TopSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = useSession();
  const [text, setText] = useState("");
  const [hits, setHits] = useState<SearchHit[]>([]);

  useEffect(() => {
    const q = text.trim();
    if (!token || !q || [...q].length > STORE_QUERY_MAX) {
      setHits([]);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      void storeEndpoints.search(q, { signal: abort.signal }).then((result) => {
        if (result.ok) setHits(result.data.items);
      });
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, token]);

  return (
    <AutoComplete
      className="pl-topbar__search"
      value={text}
      onChange={setText}
      options={hits.map((hit) => ({
        value: `${hit.kind}:${hit.code}`,
        label: (
          <span data-testid={`top-search-hit-${hit.code}`}>
            <Tag>{t(kindLabel[hit.kind])}</Tag>
            <Typography.Text>{hit.name}</Typography.Text>
          </span>
        ),
        path: hit.path,
      }))}
      onSelect={(_value, option) => {
        setText("");
        navigate((option as { path: string }).path);
      }}
    >
      <Input
        prefix={<SearchOutlined />}
        placeholder={t("nav.searchPlaceholder")}
        allowClear
        onPressEnter={(event) => {
          // Enter on a highlighted suggestion is the AutoComplete's; on plain text it opens the store.
          if (event.defaultPrevented) return;
          const value = event.currentTarget.value.trim();
          navigate(`${PATHS.home}${value ? `?q=${encodeURIComponent(value)}` : ""}`);
        }}
        data-testid="top-search"
      />
    </AutoComplete>
  );
}
