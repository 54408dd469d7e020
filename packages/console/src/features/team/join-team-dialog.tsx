import { Button, Modal, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { handledByRequestLayer } from "../../lib/api/request";
import { useSession } from "../../lib/api/session";
import { readString, writeString } from "../../lib/api/storage";
import { feedback } from "../../lib/feedback";
import { PATHS } from "../../lib/paths";
import { enterSpace } from "./enter-space";

type Dialog =
  | { kind: "confirm"; inviteParam: string; company: string; roleName: string }
  | { kind: "member"; company: string }
  | { kind: "unusable"; message: string };

/**
 * The join flow of a team invitation link (spec §2, §4). Start-up stored the link's `tm_…`
 * inviteParam; once signed in, the console goes to the apps page and asks to confirm joining. A
 * person already in the space is told so ('I know'); a link that can no longer be used says why.
 */
export function JoinTeamDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const [dialog, setDialog] = useState<Dialog>();
  const [joining, setJoining] = useState(false);
  const handled = useRef<string>(undefined);

  useEffect(() => {
    const inviteParam = readString("teamInviteParam");
    if (!session.token || !inviteParam || handled.current === inviteParam) return;
    handled.current = inviteParam;
    void (async () => {
      if (location.pathname !== PATHS.agents) await navigate(PATHS.agents);
      const resolved = await endpoints.team.resolveInvitation(inviteParam, { silent: true });
      if (!resolved.ok) {
        writeString("teamInviteParam", undefined);
        setDialog({ kind: "unusable", message: resolved.error.message });
        return;
      }
      const spaces = await endpoints.me.spaces({ silent: true });
      if (spaces.ok && spaces.data.some((space) => space.companyCode === resolved.data.companyCode)) {
        writeString("teamInviteParam", undefined);
        setDialog({ kind: "member", company: resolved.data.companyName });
        return;
      }
      setDialog({ kind: "confirm", inviteParam, company: resolved.data.companyName, roleName: resolved.data.roleName });
    })();
    // The ref keeps this to once per stored link, whatever re-runs the effect.
  }, [session.token, navigate, location.pathname]);

  const close = () => {
    writeString("teamInviteParam", undefined);
    setDialog(undefined);
  };

  const confirm = async (inviteParam: string, company: string) => {
    setJoining(true);
    try {
      const previous = session.user?.spaceId;
      const result = await endpoints.team.acceptInvitation(inviteParam, { silent: true });
      writeString("teamInviteParam", undefined);
      if (result.ok) {
        setDialog(undefined);
        await navigate(PATHS.agents);
        await enterSpace(result.data, previous);
        feedback.success(t("teamMembers.join.joined", { company: result.data.companyName }));
        return;
      }
      if (result.error.status === 409) setDialog({ kind: "member", company });
      else if (handledByRequestLayer(result.error)) setDialog(undefined);
      else setDialog({ kind: "unusable", message: result.error.message });
    } finally {
      setJoining(false);
    }
  };

  return (
    <>
      <Modal
        open={dialog?.kind === "confirm"}
        title={t("teamMembers.join.title")}
        okText={t("teamMembers.join.confirm")}
        cancelText={t("common.cancel")}
        confirmLoading={joining}
        maskClosable={false}
        onCancel={close}
        onOk={() => (dialog?.kind === "confirm" ? confirm(dialog.inviteParam, dialog.company) : undefined)}
        okButtonProps={{ "data-testid": "team-join-confirm" } as Record<string, string>}
        cancelButtonProps={{ "data-testid": "team-join-cancel" } as Record<string, string>}
      >
        {dialog?.kind === "confirm" ? (
          <div data-testid="team-join-dialog">
            <Typography.Paragraph>{t("teamMembers.join.question", { company: dialog.company })}</Typography.Paragraph>
            <Typography.Text type="secondary">{t("teamMembers.join.role", { role: dialog.roleName })}</Typography.Text>
          </div>
        ) : null}
      </Modal>
      <Modal
        open={dialog?.kind === "member" || dialog?.kind === "unusable"}
        title={dialog?.kind === "member" ? t("teamMembers.join.memberTitle") : t("teamMembers.join.unusableTitle")}
        onCancel={close}
        footer={
          <Button type="primary" onClick={close} data-testid="team-join-ok">
            {t("teamMembers.join.iKnow")}
          </Button>
        }
      >
        <Typography.Paragraph data-testid="team-join-notice">
          {dialog?.kind === "member" ? t("teamMembers.join.alreadyMember", { company: dialog.company }) : dialog?.kind === "unusable" ? dialog.message : null}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
