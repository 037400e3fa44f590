// The page a user signed in with the initial (or a reset) password lands on, and the only one they
// can open until the password is changed: the guard sends every other path here, and the server
// answers nothing else to their token. The change ends every session, so the user signs in again.
import { Button, Card, Result, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../i18n/useT.ts';
import { logout } from '../shell/logout.ts';
import { endSession, userInfoAtom } from '../state/session.ts';
import { PasswordForm } from './Profile.tsx';

export default function ChangePassword() {
  const t = useT();
  const user = useAtomValue(userInfoAtom);
  const [, navigate] = useLocation();
  const [changed, setChanged] = useState(false);
  const signInAgain = () => {
    // the change already ended the session on the server
    endSession();
    navigate('/login');
  };
  return (
    <div className="zs-password-page" style={{ display: 'flex', justifyContent: 'center', padding: '10vh 16px' }}>
      <Card title={t('title.password')} style={{ width: 520, maxWidth: '100%' }}>
        {changed ? (
          <Result
            status="success"
            title={t('password.done')}
            extra={
              <Button type="primary" onClick={signInAgain}>
                {t('password.relogin')}
              </Button>
            }
          />
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Typography.Paragraph>{t('password.intro', { account: user?.account ?? '' })}</Typography.Paragraph>
            <PasswordForm onChanged={() => setChanged(true)} />
            <Button type="link" style={{ padding: 0 }} onClick={() => void logout(navigate)}>
              {t('password.logout')}
            </Button>
          </Space>
        )}
      </Card>
    </div>
  );
}
