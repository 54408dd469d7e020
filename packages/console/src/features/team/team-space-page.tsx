import { Tabs, type TabsProps } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../components/page-header";
import { useSession } from "../../lib/api/session";
import { CreditsTab } from "./credits/credits-tab";
import { InvitationsTab } from "./invitations-tab";
import { MembersTab } from "./members-tab";
import { RolesTab } from "./roles/roles-tab";

type TabItem = NonNullable<TabsProps["items"]>[number];

/**
 * /console/teamSpace: the team space's tabs. Each tab is one entry of the list below; the
 * Roles (features/team/roles/roles-tab.tsx) and Credits (features/team/credits/credits-tab.tsx)
 * tabs join it as one entry each.
 */
export function TeamSpacePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = (key: string, label: string, children: TabItem["children"]): TabItem => ({
    key,
    label: <span data-testid={`team-tab-${key}`}>{label}</span>,
    children,
  });
  const tabs: TabItem[] = [
    tab("members", t("teamMembers.tabs.members"), <MembersTab />),
    tab("invitations", t("teamMembers.tabs.invitations"), <InvitationsTab />),
    tab("roles", t("teamMembers.tabs.roles"), <RolesTab />),
    tab("credits", t("teamMembers.tabs.credits"), <CreditsTab />),
  ];
  const requested = params.get("tab");
  const active = tabs.some((item) => item.key === requested) ? requested! : "members";

  return (
    <div data-testid="team-space-page">
      <PageHeader title={t("teamMembers.title")} subtitle={t("teamMembers.subtitle", { company: user?.companyName ?? "" })} />
      <Tabs activeKey={active} onChange={(key) => setParams(key === "members" ? {} : { tab: key }, { replace: true })} destroyOnHidden items={tabs} />
    </div>
  );
}
