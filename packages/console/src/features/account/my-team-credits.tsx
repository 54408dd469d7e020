import { TeamOutlined } from "@ant-design/icons";
import { Card, Flex, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSpaceQuery } from "../../lib/api/query";
import { teamCreditsEndpoints } from "../../lib/api/team-credits";

/**
 * A member's own enterprise credits in the current team space: what the owner allocated to
 * them, what they spent from it and in all, and what their next turn may use. Shown to members
 * of team spaces only (the owner spends the space's pool and has no allocation).
 */
export function MyTeamCredits() {
  const { t } = useTranslation();
  const mine = useSpaceQuery({ key: ["team", "credits", "me"], fetch: (signal) => teamCreditsEndpoints.mine({ signal }) }).data;
  if (!mine?.teamSpace || mine.owner) return null;
  return (
    <Card className="pl-card-plain" title={t("teamCredits.mine.title")} data-testid="my-team-credits">
      <Flex gap={32} wrap>
        <Statistic title={t("teamCredits.mine.allocation")} value={mine.allocation} prefix={<TeamOutlined />} data-testid="my-team-credits-allocation" />
        <Statistic title={t("teamCredits.mine.spent")} value={mine.spent} data-testid="my-team-credits-spent" />
        <Statistic title={t("teamCredits.mine.spentTotal")} value={mine.spentTotal} />
        <Statistic title={t("teamCredits.mine.available")} value={mine.available} />
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t("teamCredits.mine.explain")}
      </Typography.Paragraph>
    </Card>
  );
}
