// @vitest-environment happy-dom
// The report screens: the run table (group subtotals, grand total), the builder (a saved definition
// back in its controls, the engine's check before any request, preview and save), the runner.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWith } from '../admin/testing/render.tsx';
import { catalog } from '../renderers/catalog.ts';
import { appStore, permissionAtom } from '../state/session.ts';
import type { RendererHttp } from '../renderers/http-context.tsx';
import ReportBuilder, { fromPredicate, toPredicate } from './ReportBuilder.tsx';
import ReportRunner from './ReportRunner.tsx';
import { ReportTable, type ReportRun } from './ReportTable.tsx';

const RUN: ReportRun = {
  columns: [
    { field: 'name', label: '项目名称', numeric: false },
    { field: 'projectType', label: '工程类别', numeric: false },
    { field: 'targetCost', label: '目标成本', numeric: true },
  ],
  groupBy: ['projectType'],
  sums: ['targetCost'],
  records: [
    { id: '1', name: '人才公寓一号', projectType: '房建工程', targetCost: 100.1 },
    { id: '2', name: '人才公寓二号', projectType: '房建工程', targetCost: 200.2 },
    { id: '3', name: '滨江大道', projectType: '市政工程', targetCost: 50.05 },
  ],
  groups: [
    { projectType: '房建工程', count: 2, targetCost: 300.3 },
    { projectType: '市政工程', count: 1, targetCost: 50.05 },
  ],
  totals: { count: 3, targetCost: 350.35 },
  total: 3,
  current: 1,
  size: 20,
};

const SAVED = {
  id: '900',
  name: '按类别汇总',
  entityKey: 'project',
  definition: {
    columns: ['name', 'targetCost'],
    groupBy: ['projectType'],
    sums: ['targetCost'],
    filter: { _and: [{ projectStatus: { _eq: 'constructing' } }, { targetCost: { _gt: 100 } }] },
  },
};

function fakeHttp() {
  const calls: { method: string; url: string; params?: unknown; body?: unknown }[] = [];
  const http: RendererHttp = {
    get: vi.fn(async (url: string, params?: unknown) => {
      calls.push({ method: 'get', url, params });
      return RUN as any;
    }),
    post: vi.fn(async (url: string, body?: unknown) => {
      calls.push({ method: 'post', url, body });
      return (url.endsWith('/preview') ? RUN : { id: '900' }) as any;
    }),
    blob: vi.fn(async (url: string, params?: unknown) => {
      calls.push({ method: 'blob', url, params });
      return { blob: new Blob(['x']), filename: 'download' };
    }),
  };
  return { http, calls };
}

const report = () => catalog().entities.report;

describe('report table', () => {
  it('puts a subtotal after each group and the grand total below', () => {
    renderWith(<ReportTable run={RUN} />, fakeHttp().http);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual([
      '项目名称工程类别目标成本',
      '人才公寓一号房建工程100.1',
      '人才公寓二号房建工程200.2',
      '小计 房建工程 (2 条)300.3',
      '滨江大道市政工程50.05',
      '小计 市政工程 (1 条)50.05',
      '合计 (3 条)350.35',
    ]);
  });
});

describe('report conditions', () => {
  it('turns rows into one predicate, numbers as numbers, and back', () => {
    const project = catalog().entities.project;
    const pred = toPredicate(project, [
      { field: 'projectType', op: '_in', value: 'building,municipal' },
      { field: 'targetCost', op: '_gte', value: '100' },
      { op: '_eq', value: 'ignored' },
    ]);
    expect(pred).toEqual({ _and: [{ projectType: { _in: ['building', 'municipal'] } }, { targetCost: { _gte: 100 } }] });
    expect(fromPredicate(pred)).toEqual([
      { field: 'projectType', op: '_in', value: 'building,municipal' },
      { field: 'targetCost', op: '_gte', value: '100' },
    ]);
    expect(toPredicate(project, [])).toBeUndefined();
  });
});

describe('report builder', () => {
  it('opens a saved report in its controls, previews and saves the same definition', async () => {
    const { http, calls } = fakeHttp();
    const onClose = vi.fn();
    renderWith(<ReportBuilder model={report()} rows={[SAVED]} onClose={onClose} />, http);
    expect(screen.getByText('设计报表')).toBeTruthy();
    expect((screen.getByDisplayValue('按类别汇总') as HTMLInputElement).value).toBe('按类别汇总');
    expect(screen.getAllByTestId('report-condition')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: /预\s*览/ }));
    await screen.findByText('小计 房建工程 (2 条)');
    expect(calls[0]).toEqual({
      method: 'post',
      url: '/api/blade-report/report/rest/preview',
      body: { entityKey: 'project', definition: SAVED.definition },
    });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(calls[1]).toMatchObject({
      url: '/api/blade-report/report/rest/submit',
      body: { id: '900', name: '按类别汇总', entityKey: 'project', definition: SAVED.definition },
    });
  });

  it('says what is wrong with a definition and sends nothing', () => {
    const { http, calls } = fakeHttp();
    renderWith(
      <ReportBuilder
        model={report()}
        rows={[{ ...SAVED, definition: { columns: ['name', 'nmae'], sums: ['projectType'] } }]}
        onClose={() => undefined}
      />,
      http,
    );
    expect(screen.getByText(/项目没有可用于报表的字段 nmae/)).toBeTruthy();
    expect(screen.getByText(/工程类别不是数值字段,不能求和/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /预\s*览/ }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: /保\s*存/ }).hasAttribute('disabled')).toBe(true);
    expect(calls).toEqual([]);
  });
});

describe('report runner', () => {
  it('runs the report a page at a time and exports it', async () => {
    appStore.set(permissionAtom, { report_view: true, report_export: true });
    const { http, calls } = fakeHttp();
    renderWith(<ReportRunner model={report()} rows={[SAVED]} onClose={() => undefined} />, http);
    const total = await screen.findByText('合计 (3 条)');
    expect(within(total.closest('tr')!).getByText('350.35')).toBeTruthy();
    expect(calls[0]).toEqual({ method: 'get', url: '/api/blade-report/report/rest/run', params: { id: '900', current: 1, size: 20 } });
    fireEvent.click(screen.getByRole('button', { name: /导出 Excel/ }));
    await waitFor(() => expect(calls[1]).toEqual({ method: 'blob', url: '/api/blade-report/report/rest/export', params: { id: '900' } }));
  });

  it('offers no export without the export button', async () => {
    appStore.set(permissionAtom, { report_view: true });
    renderWith(<ReportRunner model={report()} rows={[SAVED]} onClose={() => undefined} />, fakeHttp().http);
    await screen.findByText('合计 (3 条)');
    expect(screen.queryByRole('button', { name: /导出 Excel/ })).toBeNull();
  });
});
