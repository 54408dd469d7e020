import { useNavigate, useSearchParams } from "react-router";
import { safeReturnTo } from "../../app/return-to";
import { sessionStore } from "../../lib/api/session";
import { refreshSession } from "../../app/startup";
import type { Session } from "../../lib/api/types";

/** Returns what to do with a fresh session: store it, load the rest, go where the user was heading. */
export function useCompleteSignIn(): (session: Session) => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (session) => {
    sessionStore.signIn(session);
    void refreshSession();
    navigate(safeReturnTo(params.get("returnTo")), { replace: true });
  };
}
