// antd's locale and theme, around the pages that use antd. The login page does not, so the first
// page a visitor loads stays small; everything behind it loads antd with this provider.
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { langAtom, themeAtom } from '../state/session.ts';
import { antdThemeFor } from './themes.ts';

export default function AntdProviders({ children }: { children: ReactNode }) {
  const lang = useAtomValue(langAtom);
  const theme = useAtomValue(themeAtom);
  return (
    <ConfigProvider locale={lang === 'zh' ? zhCN : enUS} theme={antdThemeFor(theme)}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
