import type { Decorator, Preview } from '@storybook/react-vite';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { antdThemeFor } from '../src/client/app/themes.ts';
import { provideMessages } from '../src/client/i18n/intl.ts';
import { en } from '../src/client/i18n/messages.en.ts';
import { TextsProvider } from '../src/client/i18n/TextsProvider.tsx';
import { appStore, langAtom, permissionAtom, themeAtom } from '../src/client/state/session.ts';
import type { ThemeName } from '../src/client/app/website.ts';
import { buttonsOf, type StoryRole } from '../src/client/renderers/gallery/permissions.ts';
import { RegistryContext } from '../src/client/renderers/registry.ts';
import { RULE_PANELS } from '../src/packs/cost/client/panels/panels.tsx';
import { installPacks } from '../src/engine/packs.ts';
import { ENGINE_PACKS } from '../src/packs/engine.ts';
import '../src/client/styles.css';

// the packs' engine faces, before any story compiles the schema set
installPacks(ENGINE_PACKS);
// both languages' texts at hand: the locale switch of the toolbar shows English at once
provideMessages('en', en);

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** Locale and theme are toolbar switches, so every story can be seen in each. */
const withProviders: Decorator = (Story, context) => {
  const lang = context.globals.locale === 'en' ? 'en' : 'zh';
  const theme = (context.globals.theme ?? 'default') as ThemeName;
  appStore.set(langAtom, lang);
  appStore.set(themeAtom, theme);
  // "story": the buttons the story itself grants; otherwise those of the chosen role
  const role = context.globals.role as StoryRole | 'story' | undefined;
  if (role && role !== 'story') appStore.set(permissionAtom, buttonsOf(role));
  return (
    <JotaiProvider store={appStore}>
      <TextsProvider>
        <QueryClientProvider client={queryClient}>
          <ConfigProvider locale={lang === 'en' ? enUS : zhCN} theme={antdThemeFor(theme)}>
            <AntApp>
              {/* the cost rules' panels in every form and detail view, as in the app */}
              <RegistryContext.Provider value={RULE_PANELS}>
                <Story />
              </RegistryContext.Provider>
            </AntApp>
          </ConfigProvider>
        </QueryClientProvider>
      </TextsProvider>
    </JotaiProvider>
  );
};

const preview: Preview = {
  decorators: [withProviders],
  globalTypes: {
    locale: {
      description: 'Language',
      toolbar: {
        icon: 'globe',
        items: [
          { value: 'zh', title: '中文' },
          { value: 'en', title: 'English' },
        ],
      },
    },
    role: {
      description: 'Role (button permissions)',
      toolbar: {
        icon: 'user',
        items: [
          { value: 'story', title: 'As the story says' },
          { value: 'administrator', title: '管理员 / administrator' },
          { value: 'clerk', title: '资料员 / clerk (no delete, no export)' },
          { value: 'viewer', title: '只读 / viewer' },
        ],
      },
    },
    theme: { description: 'Theme', toolbar: { icon: 'paintbrush', items: ['default', 'smart', 'black-gold', 'blue-white', 'white'] } },
  },
  initialGlobals: { locale: 'zh', theme: 'default', role: 'story' },
};

export default preview;
