// The work desk: notices.
import type { ServerModule } from '../module.ts';
import { registerNoticeRoutes } from './notice.ts';

export const deskModule: ServerModule = {
  name: 'desk',
  routes: (app, { ctx }) => registerNoticeRoutes(app, ctx),
};
