// Component tests of the renderers: the providers the app gives them (jotai store, antd in zh or
// en, App for message/modal) around an in-memory API.
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactElement } from 'react';
import { appStore, langAtom, permissionAtom, userInfoAtom, type UserInfo } from '../../state/session.ts';
import type { RendererHttp } from '../http-context.tsx';
import { FakeApi } from './FakeApi.tsx';

export interface TestSetup {
  http: RendererHttp;
  lang?: 'zh' | 'en';
  /** Button codes the user holds ({material_total_demand_add: true, …}). */
  permissions?: Record<string, boolean>;
  userId?: string;
}

export function renderWithApi(ui: ReactElement, { http, lang = 'zh', permissions = {}, userId = '1001' }: TestSetup) {
  appStore.set(langAtom, lang);
  appStore.set(permissionAtom, permissions);
  appStore.set(userInfoAtom, { user_id: userId, account: 'tester' } as UserInfo);
  const wrap = (node: ReactElement) => (
    <JotaiProvider store={appStore}>
      <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
        <AntApp>
          <FakeApi http={http}>{node}</FakeApi>
        </AntApp>
      </ConfigProvider>
    </JotaiProvider>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
