// zh / en: the current language is disabled; the choice is stored and the title follows.
import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useAtom } from 'jotai';
import { langAtom, type Lang } from '../state/session.ts';

export function LanguageSwitch({ color }: { color?: string }) {
  const [lang, setLang] = useAtom(langAtom);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [lang],
        items: [
          { key: 'zh', label: '中文', disabled: lang === 'zh' },
          { key: 'en', label: 'English', disabled: lang === 'en' },
        ],
        onClick: ({ key }) => setLang(key as Lang),
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} style={{ color }} aria-label="language" data-testid="language-switch">
        {lang === 'zh' ? '中文' : 'EN'}
      </Button>
    </Dropdown>
  );
}
