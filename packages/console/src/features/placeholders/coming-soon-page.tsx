import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { EmptyState } from "../../components/empty-state";
import { PageHeader } from "../../components/page-header";
import { SCREENS, type ScreenId } from "./screens";

/** Props of {@link ComingSoonPage}. */
export interface ComingSoonPageProps {
  screen: ScreenId;
  /** Show the screen title as a page header (console pages) or only the empty state. */
  header?: boolean;
  /** Standalone pages (embeds, forms) get a centred frame of their own. */
  standalone?: boolean;
}

/**
 * A screen whose route exists but whose content lands in a later issue: its title and the
 * product's standard empty state, naming the screen. Never shows sample data.
 */
export function ComingSoonPage({ screen, header = true, standalone = false }: ComingSoonPageProps) {
  const { t } = useTranslation();
  const params = useParams();
  const info = SCREENS[screen];
  const name = t(info.titleKey);
  const reference = params.code ?? params.clientId;
  const body = (
    <div className="pl-coming-soon__icon-frame">
      <EmptyState
        icon={<span className="pl-coming-soon__icon">{info.icon}</span>}
        title={t("placeholder.title", { screen: name })}
        description={
          <>
            {t(info.descriptionKey)}
            <br />
            {t("placeholder.description")}
          </>
        }
        data-testid={`coming-soon-${screen}`}
      />
    </div>
  );
  if (standalone) return <div className="pl-standalone">{body}</div>;
  return (
    <div className="pl-coming-soon">
      {header ? <PageHeader title={name} subtitle={reference ? t("placeholder.reference", { reference }) : undefined} /> : null}
      <div className="pl-card">{body}</div>
    </div>
  );
}
