// The lock page: the session stays, the screen waits for the lock password (or a logout).
import { LockOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Input, Space, Typography } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { website } from '../app/website.ts';
import { useT } from '../i18n/useT.ts';
import { lockPasswordAtom, userInfoAtom } from '../state/session.ts';
import { logout } from '../shell/logout.ts';

export default function Lock() {
  const t = useT();
  const { message } = App.useApp();
  const [lock, setLock] = useAtom(lockPasswordAtom);
  const user = useAtomValue(userInfoAtom);
  const [value, setValue] = useState('');
  const [, navigate] = useLocation();
  const unlock = () => {
    if (!value) return message.error(t('lock.required'));
    if (value !== lock) return message.error(t('lock.wrong'));
    setLock(null);
    navigate(website.firstPage.path);
  };
  return (
    <div className="zs-lock">
      <Space direction="vertical" align="center" size="large">
        <Avatar size={96} src={user?.avatar || undefined}>
          {user?.real_name?.slice(0, 1)}
        </Avatar>
        <Typography.Title level={3} style={{ color: '#fff', margin: 0 }}>
          {user?.real_name}
        </Typography.Title>
        <Typography.Text style={{ color: '#c0c4cc' }}>{t('lock.hint')}</Typography.Text>
        <Space.Compact>
          <Input.Password
            prefix={<LockOutlined />}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onPressEnter={unlock}
            placeholder={t('lock.password')}
            aria-label={t('lock.password')}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={unlock}>
            {t('lock.unlock')}
          </Button>
        </Space.Compact>
        <Button type="link" onClick={() => void logout(navigate)} style={{ color: '#fff' }}>
          {t('lock.logout')}
        </Button>
      </Space>
    </div>
  );
}
