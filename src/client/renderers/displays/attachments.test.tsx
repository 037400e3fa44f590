// @vitest-environment happy-dom
// An attachment field (types $defs/attachments) as a user meets it: the detail view lists the
// uploaded files by the names they were uploaded under, each linking to its file; the form's upload
// control shows the same names and appends a new upload's link.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { createFakeHttp } from '../testing/fake-http.ts';
import { renderWithApi, TestProviders } from '../testing/providers.tsx';
import { FieldControl } from '../widgets/FieldControl.tsx';
import { FieldDisplay } from './FieldDisplay.tsx';

afterEach(cleanup);

const field = catalog().entities.expenditureContract.fieldMap.attachments;
const SCAN = '/api/blade-resource/oss/file/upload/20260315/0f3c2a.pdf';
const LIST = '/api/blade-resource/oss/file/upload/20260316/9b81de.xlsx';

/** A fake API whose attachment records include the two uploaded files. */
function api() {
  const http = createFakeHttp(catalog(), { rows: 2 });
  http.tables
    .get('attach')!
    .push(
      { id: '9000001', originalName: '塔吊租赁合同扫描件.pdf', link: SCAN, extension: 'pdf' },
      { id: '9000002', originalName: '设备进场清单.xlsx', link: LIST, extension: 'xlsx' },
    );
  return http;
}

describe('attachments in the detail view', () => {
  it('lists the files by their uploaded names, each a link to its file, in one label request', async () => {
    const http = api();
    const view = renderWithApi(<FieldDisplay field={field} value={`${SCAN},${LIST}`} />, { http });
    const scan = await screen.findByRole('link', { name: '塔吊租赁合同扫描件.pdf' });
    expect(scan.getAttribute('href')).toBe(SCAN);
    expect(screen.getByRole('link', { name: '设备进场清单.xlsx' }).getAttribute('href')).toBe(LIST);
    expect(view.container.textContent).toBe('塔吊租赁合同扫描件.pdf, 设备进场清单.xlsx');
    expect(http.calls.filter((c) => c.url.endsWith('/attach/options'))).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ ids: `${SCAN},${LIST}`, valueField: 'link' }) }),
    ]);
  });

  it('a file whose record is unknown still links, by its stored name', async () => {
    renderWithApi(<FieldDisplay field={field} value="/api/blade-resource/oss/file/upload/20260101/lost.pdf" />, { http: api() });
    expect((await screen.findByRole('link', { name: 'lost.pdf' })).getAttribute('href')).toMatch(/lost\.pdf$/);
  });
});

function Probe({ initial }: { initial?: string }) {
  const [value, setValue] = useState<unknown>(initial);
  return (
    <>
      <FieldControl field={field as FieldModel} value={value} onChange={setValue} id="attachments" />
      <output data-testid="value">{String(value)}</output>
    </>
  );
}

describe('attachments in the form', () => {
  it('shows the stored files by name and appends an uploaded file’s link', async () => {
    const http = api();
    render(
      <TestProviders http={http}>
        <Probe initial={SCAN} />
      </TestProviders>,
    );
    expect(await screen.findByText('塔吊租赁合同扫描件.pdf')).toBeTruthy();
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.multiple).toBe(true);
    const file = new File([new Uint8Array(2048)], '安全协议.pdf', { type: 'application/pdf' });
    await act(async () => fireEvent.change(input, { target: { files: [file] } }));
    await waitFor(() => expect(screen.getByTestId('value').textContent).toMatch(new RegExp(`^${SCAN},.+`)));
    expect(screen.getByTestId('value').textContent!.split(',')).toHaveLength(2);
    expect((await screen.findAllByText('安全协议.pdf')).length).toBeGreaterThan(0);
    expect(http.calls.filter((c) => c.url.endsWith('put-file'))).toHaveLength(1);
  });
});
