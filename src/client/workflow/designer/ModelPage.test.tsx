// @vitest-environment happy-dom
// 模型设计 over a small in-memory model API (the bpmn-js drawing is replaced: it does not draw in
// happy-dom): the list's columns, a new model from the simple template saved with model/submit,
// and a deploy refusal shown with every refused element.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http.ts';
import { renderWithApi } from '../../renderers/testing/providers.tsx';
import { newModelXml } from './bpmn-props.ts';
import { ModelDesigner } from './ModelDesigner.tsx';
import ModelPage from './ModelPage.tsx';

// the stand-in drawing keeps its XML as text; the process's id and name are rewritten as bpmn-js would
vi.mock('./ModelerCanvas.tsx', async () => {
  const { useEffect, useState } = await import('react');
  const PROCESS = /<process id="([^"]*)" name="([^"]*)"/;
  return {
    default: ({ xml, onReady, onChange }: { xml: string; onReady: (api: unknown) => void; onChange?: () => void }) => {
      const [current, setCurrent] = useState(xml);
      useEffect(() => {
        let text = xml;
        onReady({
          xml: async () => text,
          apply: () => undefined,
          process: () => ({ id: PROCESS.exec(text)?.[1] ?? '', name: PROCESS.exec(text)?.[2] ?? '', description: '' }),
          updateProcess: (p: { id: string; name: string }) => {
            text = text.replace(PROCESS, `<process id="${p.id}" name="${p.name}"`);
            setCurrent(text);
          },
        });
        onChange?.();
      }, [xml]);
      return <pre data-testid="canvas-stub">{current}</pre>;
    },
  };
});

// antd pages render slowly on a busy machine: wait up to 10 s for what a user would see
afterEach(cleanup);

const REFUSAL = '流程模型不能部署:\n不支持的流程元素 脚本任务 "算价" (calc)';

function modelApi() {
  const calls: { method: string; url: string; body?: any; params?: any }[] = [];
  const models = [
    { id: '501', name: '材料总需用计划审批', modelKey: 'materialTotalDemand', version: 3, lastUpdated: '2026-11-22 10:00:00' },
  ];
  const http = {
    calls,
    get: async (url: string, params?: any) => {
      calls.push({ method: 'get', url, params });
      if (url.endsWith('/model/list')) return { records: models, total: models.length, size: 10, current: 1 };
      if (url.endsWith('/manager/list')) return { records: [], total: 0, size: 200, current: 1 };
      if (url.endsWith('/user/options')) return { records: [] };
      if (url.endsWith('/role/list')) return [];
      if (url.endsWith('/dict/dictionary'))
        return [
          { dictKey: 'materialCheck', dictValue: '材料验收' },
          { dictKey: 'materialTotalDemand', dictValue: '材料总需用计划' },
        ];
      throw new ApiError(404, 'not found', null);
    },
    post: async (url: string, body?: any) => {
      calls.push({ method: 'post', url, body });
      if (url.endsWith('/model/submit')) return { ...body, id: body.id ?? '777' };
      if (url.endsWith('/model/deploy')) throw new ApiError(400, REFUSAL, null);
      return null;
    },
    blob: async () => new Blob(),
  };
  return http;
}

describe('模型设计', () => {
  it('lists the models with name, key, version and last change', async () => {
    const http = modelApi();
    renderWithApi(<ModelPage />, { http: http as any });
    const row = await screen.findByRole('row', { name: /materialTotalDemand/ });
    expect(row.textContent).toContain('材料总需用计划审批');
    expect(row.textContent).toContain('v3');
    expect(row.textContent).toContain('2026-11-22 10:00:00');
  });

  it('部署 of a model the engine refuses shows the refused elements', async () => {
    const http = modelApi();
    renderWithApi(<ModelPage />, { http: http as any });
    fireEvent.click(within(await screen.findByRole('row', { name: /materialTotalDemand/ })).getByRole('button', { name: /部\s*署/ }));
    expect(await screen.findByText(/不支持的流程元素 脚本任务 "算价"/)).toBeTruthy();
    expect(http.calls.find((c) => c.url.endsWith('/model/deploy'))?.body).toEqual({ modelId: '501' });
  });

  it('新建模型 from the simple template opens the designer; 保存 submits name, key and the XML', async () => {
    const http = modelApi();
    renderWithApi(<ModelPage />, { http: http as any });
    fireEvent.click(await screen.findByRole('button', { name: '新建模型' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('模型名称'), { target: { value: '合同会签' } });
    fireEvent.change(within(dialog).getByLabelText('模型标识'), { target: { value: '1bad key' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    expect(await within(dialog).findByText('模型标识以字母或下划线开头,只含字母、数字、_ . -')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('模型标识'), { target: { value: 'contractSign' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));

    const canvas = await screen.findByTestId('canvas-stub');
    expect(canvas.textContent).toContain('<process id="contractSign" name="合同会签"');
    // nothing selected: the process's own properties; the engine's check passes the template
    expect(within(screen.getByTestId('process-panel')).getByDisplayValue('contractSign')).toBeTruthy();
    expect(await screen.findByText('检查通过')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(http.calls.find((c) => c.url.endsWith('/model/submit'))).toBeTruthy());
    const saved = http.calls.find((c) => c.url.endsWith('/model/submit'))!.body;
    expect(saved).toMatchObject({ id: undefined, name: '合同会签', modelKey: 'contractSign' });
    expect(saved.xml).toContain('<userTask id="approve"');
    expect(await screen.findByText('保存成功')).toBeTruthy();

    // deploying saves again (now by id) and shows the refusal above the drawing
    fireEvent.click(screen.getByRole('button', { name: /部\s*署/ }));
    expect(await screen.findByTestId('designer-problem')).toBeTruthy();
    expect(screen.getByTestId('designer-problem').textContent).toContain('不支持的流程元素');
    expect(http.calls.filter((c) => c.url.endsWith('/model/submit'))[1].body.id).toBe('777');
  });

  it('checks the whole model as the engine would before deploy: problems named, 部署 disabled until fixed', async () => {
    const http = modelApi();
    const orphan = newModelXml('orphanTask', '无人处理').replace(' flowable:candidateGroups="project_manager"', '');
    renderWithApi(<ModelDesigner model={{ name: '无人处理', modelKey: 'orphanTask', xml: orphan }} onClose={() => undefined} />, {
      http: http as any,
    });
    const check = await screen.findByTestId('designer-check');
    expect(check.textContent).toContain('部署前检查发现 1 个问题');
    expect(check.textContent).toContain('用户任务 "审批" (approve) 没有处理人、候选人或候选组');
    expect((screen.getByRole('button', { name: /部\s*署/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('1 个问题')).toBeTruthy();
  });

  it('the process properties (name, key, category from the flow dictionary, description) are saved with the model', async () => {
    const http = modelApi();
    renderWithApi(
      <ModelDesigner
        model={{ name: '合同会签', modelKey: 'contractSign', xml: newModelXml('contractSign', '合同会签') }}
        onClose={() => undefined}
      />,
      { http: http as any },
    );
    const panel = await screen.findByTestId('process-panel');
    fireEvent.change(within(panel).getByDisplayValue('合同会签'), { target: { value: '材料验收会签' } });
    fireEvent.change(within(panel).getByDisplayValue('contractSign'), { target: { value: 'bad key' } });
    expect(await within(panel).findByText('模型标识以字母或下划线开头,只含字母、数字、_ . -')).toBeTruthy();
    expect((screen.getByRole('button', { name: /部\s*署/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(panel).getByDisplayValue('bad key'), { target: { value: 'materialCheckSign' } });
    fireEvent.mouseDown(within(panel).getByRole('combobox'));
    fireEvent.click(
      await waitFor(
        () => [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === '材料验收') as HTMLElement,
      ),
    );
    fireEvent.change(within(panel).getAllByRole('textbox').at(-1)!, { target: { value: '验收金额较大时会签' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(http.calls.find((c) => c.url.endsWith('/model/submit'))).toBeTruthy());
    const saved = http.calls.find((c) => c.url.endsWith('/model/submit'))!.body;
    expect(saved).toMatchObject({
      name: '材料验收会签',
      modelKey: 'materialCheckSign',
      category: 'flow_materialCheck',
      description: '验收金额较大时会签',
    });
    expect(saved.xml).toContain('<process id="materialCheckSign" name="材料验收会签"');
  });
});
