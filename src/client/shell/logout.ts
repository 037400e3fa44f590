import { authApi } from '../api/client.ts';
import { appStore, endSession, errorLogAtom } from '../state/session.ts';

/** Logs out on the server (sending the local error log along), then forgets the session. */
export async function logout(navigate: (to: string) => void) {
  try {
    await authApi.logout(appStore.get(errorLogAtom));
  } catch {
    // the session ends locally whatever the server says
  }
  endSession();
  navigate('/login');
}
