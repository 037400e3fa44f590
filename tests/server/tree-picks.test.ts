// Issue #25: the user form's tree picker stored the departments and roles above the ones a person
// picked, so a user put in a project department was in its company too (a department data scope
// then covered the company) and a user given a role had its parent role as well. The picker now
// stores what was picked (widgets.test.tsx); the users stored before are narrowed once, at start-up,
// and their sessions end. Afterwards a department and one under it picked on purpose stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_TREE_PICKS_DONE, narrowWidenedPicks, withoutAncestors } from '../../src/server/seed/exact-tree-picks.ts';
import { ok } from './approval.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

describe('withoutAncestors', () => {
  const parentOf = new Map([
    ['project', 'branch'],
    ['branch', 'company'],
    ['other', 'company'],
    ['loop-a', 'loop-b'],
    ['loop-b', 'loop-a'],
  ]);

  it('keeps the ids no other id of the list lies under, in their order', () => {
    expect(withoutAncestors(['company', 'branch', 'project'], parentOf)).toEqual(['project']);
    expect(withoutAncestors(['project', 'other', 'company'], parentOf)).toEqual(['project', 'other']);
    expect(withoutAncestors(['branch', 'other'], parentOf)).toEqual(['branch', 'other']);
    expect(withoutAncestors(['unknown', 'project'], parentOf)).toEqual(['unknown', 'project']);
  });

  it('ends on a cycle of parents', () => {
    expect(withoutAncestors(['loop-a'], parentOf)).toEqual([]);
  });
});

describe.each(databaseKinds())('users the former tree picker widened (%s)', (kind) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
  });
  afterAll(async () => server?.dispose());

  const save = async (entity: 'dept' | 'role', data: Record<string, unknown>) =>
    String(ok(await admin.post(`/api/blade-system/${entity}/save`, { sort: 1, ...data })).id);
  const stored = async (id: string) =>
    (await server.db.query(`SELECT dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE id = $1`, [id]))[0];

  const everyoneBut = (id: string) =>
    server.db.query(`SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE id <> $1 ORDER BY id`, [id]);

  it('are narrowed once at start-up, and their sessions end; a department and one under it picked later stay', async () => {
    // every start of this installation so far (the template's) has run the migration
    expect(await server.db.query(`SELECT 1 FROM zs_setting WHERE key = $1`, [EXACT_TREE_PICKS_DONE])).toHaveLength(1);
    expect(await narrowWidenedPicks(server.db, server.ctx.catalog, async () => undefined)).toBe(0);

    const company = await save('dept', { parentId: '0', deptCategory: '1', deptName: '华东建设集团', fullName: '华东建设集团' });
    const branch = await save('dept', { parentId: company, deptCategory: '1', deptName: '第一工程公司', fullName: '第一工程公司' });
    const site = await save('dept', { parentId: branch, deptCategory: '2', deptName: '江北项目部', fullName: '江北项目部' });
    const staff = await save('role', { parentId: '0', roleName: '业务人员', roleAlias: 'tp_staff' });
    const clerk = await save('role', { parentId: staff, roleName: '江北经办员', roleAlias: 'tp_clerk' });
    const user = String(
      ok(
        await admin.post('/api/blade-system/user/save', {
          account: `tree_${kind}`,
          password: 'secret1',
          name: '经办员',
          realName: '经办员',
          // as the former picker stored a pick of 江北项目部 and 江北经办员
          deptId: [company, branch, site].join(','),
          roleId: [staff, clerk].join(','),
          status: 1,
        }),
      ).id,
    );
    const session = await server.token({ user_id: user, dept_id: [company, branch, site].join(','), role_id: [staff, clerk].join(',') });
    const asUser = client(server, session);
    expect((await asUser.get('/api/blade-system/user/info')).status).toBe(200);

    // an installation that predates the migration
    const before = await everyoneBut(user);
    await server.db.query(`DELETE FROM zs_setting WHERE key = $1`, [EXACT_TREE_PICKS_DONE]);
    expect(await narrowWidenedPicks(server.db, server.ctx.catalog, (tx, ids) => server.identity.revokeUsers(tx, ids))).toBe(1);
    expect(await stored(user)).toEqual({ deptId: site, roleId: clerk });
    expect((await asUser.get('/api/blade-system/user/info')).status).toBe(401);
    // the others, who had nothing to narrow, are as they were
    expect(await everyoneBut(user)).toEqual(before);

    // from now on, a department and one under it are what a person picked
    ok(
      await admin.post('/api/blade-system/user/update', {
        ...ok(await admin.get('/api/blade-system/user/detail', { id: user })),
        deptId: `${branch},${site}`,
      }),
    );
    expect(await narrowWidenedPicks(server.db, server.ctx.catalog, async () => undefined)).toBe(0);
    expect(await stored(user)).toMatchObject({ deptId: `${branch},${site}` });
  });
});
