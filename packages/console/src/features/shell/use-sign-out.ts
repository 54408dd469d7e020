import { useNavigate } from "react-router";
import { endpoints } from "../../lib/api/endpoints";
import { PATHS } from "../../lib/paths";
import { sessionStore } from "../../lib/api/session";

/** Signs out on the server (best effort), forgets the session and goes to the sign-in page. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    await endpoints.auth.logout({ silent: true });
    sessionStore.clear();
    navigate(PATHS.login, { replace: true });
  };
}
