// zh / en: the current language is disabled; the choice is stored and the title follows. What the
// server answered in the former language (warning texts, messages, labels) is asked for again.
import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { QueryClientContext } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useContext } from 'react';
import { langAtom, type Lang } from '../state/session.ts';

export function LanguageSwitch({ color }: { color?: string }) {
  const [lang, setLang] = useAtom(langAtom);
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
          setLang(key as Lang);
          void queries?.invalidateQueries();
        },
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} style={{ color }} aria-label="language" data-testid="language-switch">
        {lang === 'zh' ? '中文' : 'EN'}
      </Button>
    </Dropdown>
  );
}
