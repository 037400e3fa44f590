import { Button, Result } from 'antd';
import { useLocation } from 'wouter';
import { website } from '../app/website.ts';
import { useT } from '../i18n/useT.ts';

export function ErrorPage({ status }: { status: 403 | 404 | 500 }) {
  const t = useT();
  const [, navigate] = useLocation();
  return (
    <Result
      status={status === 403 ? '403' : status === 404 ? '404' : '500'}
      title={status}
      subTitle={t(`error.${status}`)}
      extra={
        <Button type="primary" onClick={() => navigate(website.firstPage.path)}>
          {t('error.back')}
        </Button>
      }
    />
  );
}
