// zh / en: the current language is disabled; the choice is stored and the title follows. The page
// changes once the chosen language's texts are in (English's are fetched the first time). What the
// server answered in the former language (warning texts, messages, labels) is asked for again.
import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { QueryClientContext } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useContext } from 'react';
import { useChooseLanguage } from '../i18n/useT.ts';
import { langAtom, type Lang } from '../state/session.ts';

export function LanguageSwitch({ color }: { color?: string }) {
  const lang = useAtomValue(langAtom);
  const choose = useChooseLanguage();
  const queries = useContext(QueryClientContext);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [lang],
        items: [
          { key: 'zh', label: '中文', disabled: lang === 'zh' },
          { key: 'en', label: 'English', disabled: lang === 'en' },
        ],
        onClick: ({ key }) => {
          void choose(key as Lang).then(() => queries?.invalidateQueries());
        },
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} style={{ color }} aria-label="language" data-testid="language-switch">
        {lang === 'zh' ? '中文' : 'EN'}
      </Button>
    </Dropdown>
  );
}
