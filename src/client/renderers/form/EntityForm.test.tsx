// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../catalog.ts';
import { createFakeHttp } from '../testing/fake-http.ts';
import { EntityForm } from './EntityForm.tsx';
import { FormProviders } from './testing.tsx';

afterEach(cleanup);

describe('spike', () => {
  it('param form prompts', async () => {
    const http = createFakeHttp(catalog());
    const onDone = vi.fn();
    render(<FormProviders http={http}><EntityForm model={catalog().entities.param} mode="create" onDone={onDone} /></FormProviders>);
    fireEvent.click(await screen.findByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入参数名称')).toBeTruthy();
    document.body.innerHTML && console.log(document.body.textContent);
  });
});
