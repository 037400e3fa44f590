// Home: a greeting, the tasks waiting for the user (to claim, to do), the cost overview (for users who may read the project statistics), tiles to
// the routes the user opens most, and the tenant's notices.
import { Empty } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { authApi } from '../api/client.ts';
import { flattenMenus, pageMenus } from '../state/menus.ts';
import { menuName, useT } from '../i18n/useT.ts';
import { NoticeBoard } from '../shell/notifications/NoticeBoard.tsx';
import { COST_HOME_CARDS } from '../../packs/cost/client/home.ts';
import { CardBox, Tile } from '../shell/Tile.tsx';
import { langAtom, menusAtom, userInfoAtom, visitsAtom } from '../state/session.ts';
import { WaitingWorkCard } from '../workflow/WaitingWork.tsx';

/**
 * The names of the user's roles (项目经办), not their aliases (project_clerk): the token names
 * roles by alias, as the platform's does, so the names come from the user's own record
 * (user/info answers them beside the ids, comma-joined alike), kept to the roles of this session.
 */
function useRoleNames(userId: string | undefined, roleIds: string | undefined): string {
  const [names, setNames] = useState('');
  useEffect(() => {
    if (!userId) return;
    const mine = (roleIds ?? '').split(',');
    let live = true;
    authApi
      .userInfo()
      .then((info) => {
        const ids = String(info.roleId ?? '').split(',');
        const labels = String(info.roleName ?? '').split(',');
        if (live) setNames(labels.filter((_, i) => mine.includes(ids[i])).join(', '));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [userId, roleIds]);
  return names;
}

const COLOURS = ['#409EFF', '#13a8a8', '#e6a23c', '#67c23a', '#9254de', '#f56c6c', '#1f5fbf', '#d4af37'];

export default function Home() {
  const t = useT();
  const user = useAtomValue(userInfoAtom);
  const visits = useAtomValue(visitsAtom);
  const menus = useAtomValue(menusAtom);
  const lang = useAtomValue(langAtom);
  const roleNames = useRoleNames(user?.user_id, user?.role_id);
  const all = flattenMenus(menus);
  const parentOf = (id: string) => all.find((m) => m.id === id);
  const frequent = all
    .filter((m) => m.category === 1 && visits[m.path])
    .sort((a, b) => (visits[b.path] ?? 0) - (visits[a.path] ?? 0))
    .slice(0, 8);
  const tiles = frequent.length ? frequent : pageMenus(menus).slice(0, 8);
  return (
    <>
      <CardBox radius={10} title={t('home.welcome', { name: user?.real_name ?? '' })}>
        <span style={{ color: '#909399' }} data-testid="home-roles">
          {roleNames}
        </span>
      </CardBox>
      <WaitingWorkCard />
      {COST_HOME_CARDS.map((Card, i) => (
        <Card key={i} />
      ))}
      <CardBox radius={10} title={t('home.frequent')}>
        {tiles.length ? (
          <div className="zs-tiles">
            {tiles.map((m, i) => (
              <Tile
                key={m.id}
                to={m.path}
                title={menuName(m, lang)}
                subtitle={parentOf(m.parentId) ? menuName(parentOf(m.parentId)!, lang) : undefined}
                colour={COLOURS[i % COLOURS.length]}
              />
            ))}
          </div>
        ) : (
          <Empty description={t('home.noFrequent')} />
        )}
      </CardBox>
      <NoticeBoard />
    </>
  );
}
