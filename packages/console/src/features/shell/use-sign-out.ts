import { useNavigate } from 'react-router';
import { endpoints } from '../../app/endpoints';
import { PATHS } from '../../app/paths';
import { sessionStore } from '../../app/session';

/** Signs out on the server (best effort), forgets the session and goes to the sign-in page. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    await endpoints.auth.logout({ silent: true });
    sessionStore.clear();
    navigate(PATHS.login, { replace: true });
  };
}
