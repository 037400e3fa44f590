// @vitest-environment node
// Code generation as the administrator uses it (研发工具 → 代码生成): a table of the database read
// into a model with its fields (set up through the API), then in the browser the code setting's
// 生成预览 shows the generated document's form and list, rendered by the renderers from the
// generated schema alone, and the schema itself as JSON.
import { describe, expect, test } from 'vitest';
import { TEST_TIMEOUT, listRow, login, openFromSidebar, page, see, shot, sideItem, testApp } from './harness.ts';

const DEV = '/api/blade-develop';

/** The platform administrator's call through the running app. */
async function call(method: 'GET' | 'POST', url: string, query: Record<string, string> = {}, payload?: unknown) {
  const app = testApp();
  const token = await app.tokens.sign({ tenant_id: '000000', user_id: '1123598821738675201', dept_id: '1123598813738675201', role_name: 'administrator' });
  const res = await app.app.inject({ method, url, query, payload: payload as never, headers: { 'blade-auth': `bearer ${token}` } });
  const body = JSON.parse(res.body);
  expect(body.code, res.body).toBe(200);
  return body.data;
}

describe('code generation in the browser', () => {
  test('generates a schema from a table and previews its form, list and JSON', async () => {
    await testApp().db.exec(`CREATE TABLE biz_site_diary (id bigint PRIMARY KEY, title varchar(100) NOT NULL, work_date date, headcount integer, cost numeric(18,2));
      COMMENT ON COLUMN biz_site_diary.title IS '日志标题'; COMMENT ON COLUMN biz_site_diary.work_date IS '施工日期';
      COMMENT ON COLUMN biz_site_diary.headcount IS '出勤人数'; COMMENT ON COLUMN biz_site_diary.cost IS '当日费用';`);
    const model = await call('POST', `${DEV}/model/save`, {}, { modelName: '施工日志', modelNameEn: 'Site diary', modelCode: 'siteDiary', modelTable: 'biz_site_diary' });
    const info = await call('GET', `${DEV}/model/table-info`, { modelId: model.id });
    await call('POST', `${DEV}/model-prototype/submit-list`, { modelId: model.id }, info.fields);
    await call('POST', `${DEV}/code/save`, {}, { codeName: '施工日志生成', modelId: model.id, folder: 'custom', apiPath: '/api/blade-custom/site-diary', menuParent: 'develop' });

    await login();
    if (!(await sideItem('代码生成').isVisible())) await sideItem('研发工具').click();
    await openFromSidebar('代码生成');
    await listRow('施工日志生成').getByRole('button', { name: '生成预览' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '生成预览: 施工日志生成' });
    await see(dialog.getByText('schemas/custom/site-diary.schema.json')).toBeVisible();
    for (const label of ['日志标题', '施工日期', '出勤人数', '当日费用']) await see(dialog.locator('form').getByText(label, { exact: true }).first()).toBeVisible();
    await shot('develop-preview-form.png');
    await dialog.getByRole('tab', { name: '列表预览', exact: true }).first().click();
    await see(dialog.getByTestId('entity-list').locator('.zs-grid-row').first()).toBeVisible();
    await shot('develop-preview-list.png');
    await dialog.getByRole('tab', { name: '单据定义 (JSON)', exact: true }).first().click();
    await see(dialog.locator('.zs-generated-schema')).toContainText('"key": "siteDiary"');
    await see(dialog.locator('.zs-generated-schema')).toContainText('"api": "/api/blade-custom/site-diary"');
  }, TEST_TIMEOUT * 3);
});
