import { App } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { warnLoginFirst } from "../../lib/api/request";
import { invalidateSpace } from "../../lib/api/query";
import { useSession } from "../../lib/api/session";
import { storeEndpoints, type StoreApp } from "../../lib/api/store";
import { PATHS } from "../../lib/paths";

/** Cache keys of the store (below the space id, see lib/api/query). */
export const STORE_KEYS = { list: ["store", "apps"], square: ["store", "square"] } as const;

/** What a card's buttons do: try (guests too), thumb and collect (signed in), copy into the space. */
export function useStoreActions() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = useSession();
  const { message, modal } = App.useApp();

  const needsSignIn = () => {
    if (token) return false;
    warnLoginFirst();
    return true;
  };
  const refresh = () => invalidateSpace(STORE_KEYS.list, STORE_KEYS.square);

  return {
    signedIn: Boolean(token),
    onTry: (app: StoreApp) => navigate(`/app/${app.code}?store=1`),
    onThumb: async (app: StoreApp) => {
      if (needsSignIn()) return;
      if ((await storeEndpoints.thumb(app.code, !app.thumbed)).ok) await refresh();
    },
    onCollect: async (app: StoreApp) => {
      if (needsSignIn()) return;
      if ((await storeEndpoints.collect(app.code, !app.collected)).ok) await refresh();
    },
    onCopy: (app: StoreApp) =>
      modal.confirm({
        title: t("store.copyTitle", { name: app.name }),
        content: t("store.copyNote"),
        okText: t("store.copy"),
        okButtonProps: { "data-testid": "store-copy-confirm" } as never,
        onOk: async () => {
          const copied = await storeEndpoints.copy(app.code);
          if (!copied.ok) return;
          const dropped = copied.data.droppedPlugins;
          void message.success(dropped.length > 0 ? t("store.copiedWithout", { plugins: dropped.join(", ") }) : t("store.copied"));
          navigate(`${PATHS.agent}?id=${copied.data.app.id}`);
        },
      }),
  };
}
