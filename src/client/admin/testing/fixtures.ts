// Small, known administration data for the dialog tests and stories: a menu group with a page and
// its buttons, scope rules under the page, roles, users, tenants and packages.
import { catalog } from '../../renderers/catalog.ts';
import { createFakeAdminHttp, type FakeAdminHttp } from './fake-admin.ts';

const menu = (id: string, parentId: string, name: string, category = 1) => ({
  id,
  parentId,
  name,
  code: `m${id}`,
  category,
  sort: Number(id),
});

export const MENUS = [
  menu('1', '0', '系统管理'),
  menu('2', '1', '用户管理'),
  menu('3', '2', '新增', 2),
  menu('4', '2', '密码重置', 2),
  menu('5', '1', '参数管理'),
  menu('6', '0', '基础资料'),
  menu('7', '6', '项目'),
];

const dict = (
  id: string,
  parentId: string,
  code: string,
  dictKey: string,
  dictValue: string,
  dictValueEn: string,
  sort: number,
  isSealed = 0,
) => ({ id, parentId, code, dictKey, dictValue, dictValueEn, sort, isSealed, remark: '' });

export const DICTS = [
  dict('600', '0', 'project_type', '-1', '工程类别', 'Project type', 1),
  dict('601', '600', 'project_type', 'municipal', '市政工程', 'Municipal works', 1),
  dict('602', '600', 'project_type', 'building', '房建工程', 'Building works', 2, 1),
  dict('610', '0', 'sex', '-1', '性别', 'Sex', 2),
  dict('611', '610', 'sex', '1', '男', 'Male', 1),
];

export function adminFake(options: { latencyMs?: number; hang?: boolean; failWith?: string } = {}): FakeAdminHttp {
  const fake = createFakeAdminHttp(catalog(), { rows: 3, ...options });
  fake.tables.set(
    'menu',
    MENUS.map((m) => ({ ...m })),
  );
  fake.tables.set('dataScope', [
    { id: '11', menuId: '2', scopeName: '本人可见' },
    { id: '12', menuId: '2', scopeName: '本部门可见' },
  ]);
  fake.tables.set('apiScope', [{ id: '21', menuId: '5', scopeName: '参数接口' }]);
  fake.tables.set('role', [
    { id: '100', parentId: '0', roleName: '超级管理员', roleAlias: 'administrator' },
    { id: '101', parentId: '100', roleName: '项目经办', roleAlias: 'project_clerk' },
    { id: '102', parentId: '100', roleName: '成本经理', roleAlias: 'cost_manager' },
  ]);
  fake.tables.set('user', [
    { id: '200', account: 'clerk', realName: '张经办', roleId: '101' },
    { id: '201', account: 'costmgr', realName: '李成本', roleId: '101,102' },
  ]);
  fake.tables.set('tenantPackage', [
    { id: '300', packageName: '基础版', menuId: '6,7' },
    { id: '301', packageName: '标准版', menuId: '1,2,5,6,7' },
  ]);
  fake.tables.set('datasource', [{ id: '350', name: '第一工程公司独立库', url: 'postgres://127.0.0.1:5432/zs_first' }]);
  fake.tables.set('tenant', [
    { id: '400', tenantId: '000000', tenantName: '平台', accountNumber: -1, expireTime: null, packageId: null },
    { id: '401', tenantId: '100001', tenantName: '第一工程公司', accountNumber: 20, expireTime: '2027-12-31 23:59:59', packageId: '300' },
    {
      id: '402',
      tenantId: '100002',
      tenantName: '市政工程公司',
      accountNumber: 20,
      expireTime: '2027-06-30 00:00:00',
      packageId: null,
      datasourceId: '350',
    },
  ]);
  fake.tables.set(
    'dict',
    DICTS.map((d) => ({ ...d })),
  );
  fake.tables.set('topMenu', [{ id: '500', code: 'cost', name: '成本管控', sort: 1 }]);
  fake.roleGrants.set('101', { menu: ['1', '2', '5'], dataScope: ['11'], apiScope: [] });
  fake.topMenuGrants.set('500', ['6', '7']);
  return fake;
}
