// @vitest-environment node
// Code generation as the administrator uses it (研发工具 → 代码生成): a table of the database read
// into a model with its fields (set up through the API), then in the browser the code setting's
// 生成预览 shows the generated document's form and list, rendered by the renderers from the
// generated schema alone, and the schema itself as JSON; then 写入部署 installs a generated type and
// the same browser opens its new menu page and saves a record in it, with the client as built
// before (the page compiles the schema set it loads from the server).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import {
  TEST_TIMEOUT,
  adminApi,
  confirmButton,
  entityList,
  opened,
  poll,
  listRow,
  login,
  openFromSidebar,
  page,
  see,
  serverSettings,
  shot,
  sideItem,
  testApp,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';

const DEV = '/api/blade-develop';

// install writes into this copy of the schema set, never into the repository's
const schemaDir = mkdtempSync(join(tmpdir(), 'zs-e2e-schemas-'));
cpSync(join(PROJECT_ROOT, 'schemas'), join(schemaDir, 'schemas'), { recursive: true });
cpSync(join(PROJECT_ROOT, 'entities.manifest.json'), join(schemaDir, 'entities.manifest.json'));
serverSettings.schemaDir = schemaDir;
afterAll(() => rmSync(schemaDir, { recursive: true, force: true }));

/** The platform administrator's call through the running app. */
async function call(method: 'GET' | 'POST', url: string, query: Record<string, string> = {}, payload?: unknown) {
  const api = await adminApi();
  const res = method === 'GET' ? await api.get(url, query) : await api.post(url, payload, query);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('code generation in the browser', () => {
  test(
    'generates a schema from a table and previews its form, list and JSON',
    async () => {
      await testApp().db.exec(`CREATE TABLE biz_site_diary (id bigint PRIMARY KEY, title varchar(100) NOT NULL, work_date date, headcount integer, cost numeric(18,2));
      COMMENT ON COLUMN biz_site_diary.title IS '日志标题'; COMMENT ON COLUMN biz_site_diary.work_date IS '施工日期';
      COMMENT ON COLUMN biz_site_diary.headcount IS '出勤人数'; COMMENT ON COLUMN biz_site_diary.cost IS '当日费用';`);
      const model = await call(
        'POST',
        `${DEV}/model/save`,
        {},
        { modelName: '施工日志', modelNameEn: 'Site diary', modelCode: 'siteDiary', modelTable: 'biz_site_diary' },
      );
      const info = await call('GET', `${DEV}/model/table-info`, { modelId: model.id });
      await call('POST', `${DEV}/model-prototype/submit-list`, { modelId: model.id }, info.fields);
      await call(
        'POST',
        `${DEV}/code/save`,
        {},
        { codeName: '施工日志生成', modelId: model.id, folder: 'custom', apiPath: '/api/blade-custom/site-diary', menuParent: 'develop' },
      );

      await login();
      if (!(await sideItem('代码生成').isVisible())) await sideItem('研发工具').click();
      await openFromSidebar('代码生成');
      await listRow('施工日志生成').getByRole('button', { name: '生成预览' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '生成预览: 施工日志生成' });
      await see(dialog.getByText('schemas/custom/site-diary.schema.json')).toBeVisible();
      for (const label of ['日志标题', '施工日期', '出勤人数', '当日费用'])
        await see(dialog.locator('form').getByText(label, { exact: true }).first()).toBeVisible();
      await shot('develop-preview-form.png');
      await dialog.getByRole('tab', { name: '列表预览', exact: true }).first().click();
      await see(dialog.getByTestId('entity-list').locator('.zs-grid-row').first()).toBeVisible();
      await shot('develop-preview-list.png');
      await dialog.getByRole('tab', { name: '单据定义 (JSON)', exact: true }).first().click();
      await see(dialog.locator('.zs-generated-schema')).toContainText('"key": "siteDiary"');
      await see(dialog.locator('.zs-generated-schema')).toContainText('"api": "/api/blade-custom/site-diary"');
    },
    TEST_TIMEOUT * 3,
  );

  test(
    'installs a generated type, whose menu page then opens and saves a record without a client rebuild',
    async () => {
      await testApp().db.exec(`CREATE TABLE biz_concrete_pour (id bigint PRIMARY KEY, pour_no varchar(40) NOT NULL, crew integer);
      COMMENT ON COLUMN biz_concrete_pour.pour_no IS '浇筑编号'; COMMENT ON COLUMN biz_concrete_pour.crew IS '作业人数';`);
      const model = await call(
        'POST',
        `${DEV}/model/save`,
        {},
        { modelName: '浇筑记录', modelNameEn: 'Concrete pour', modelCode: 'concretePour', modelTable: 'biz_concrete_pour' },
      );
      const info = await call('GET', `${DEV}/model/table-info`, { modelId: model.id });
      await call('POST', `${DEV}/model-prototype/submit-list`, { modelId: model.id }, info.fields);
      await call(
        'POST',
        `${DEV}/code/save`,
        {},
        {
          codeName: '浇筑记录生成',
          modelId: model.id,
          folder: 'custom',
          apiPath: '/api/blade-custom/concrete-pour',
          menuParent: 'develop',
        },
      );

      await login();
      const schemaLoads: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === '/api/schemas') schemaLoads.push(r.status());
      });
      if (!(await sideItem('代码生成').isVisible())) await sideItem('研发工具').click();
      await openFromSidebar('代码生成');
      await listRow('浇筑记录生成').getByRole('button', { name: '生成预览' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '生成预览: 浇筑记录生成' });
      await (await opened(dialog)).getByRole('button', { name: '写入部署' }).click();
      await (await confirmButton()).click();
      await see(toast('已写入 schemas/custom/concrete-pour.schema.json')).toBeVisible();
      // the catalog came again from the server, in this same page: no reload, no rebuilt client
      // (its answer is waited for: the toast does not promise that it has already arrived)
      await poll(async () => schemaLoads).toEqual([200]);
      await dialog.locator('.ant-modal-close').click();
      await see(dialog).toBeHidden();

      await openFromSidebar('浇筑记录');
      await see(entityList()).toContainText('浇筑编号');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await typeInto(page.locator('#root_pourNo'), 'P-0001');
      await typeInto(page.locator('#root_crew'), '12');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();
      await see(listRow('P-0001')).toContainText('12');
      await shot('develop-installed-list.png');
    },
    TEST_TIMEOUT * 4,
  );
});
