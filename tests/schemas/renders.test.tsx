// @vitest-environment happy-dom
// Every manifest entity renders its list, form and detail from its schema alone, over the in-memory
// API of generated records: the list shows the x-list columns and the records, the form every
// editable field of its layout, the detail the record's values. About half a second of CPU per screen,
// so a run renders a sample of the entities, a new one each run (the seed is printed; ZS_SAMPLE=all
// renders every one): over a day of runs every entity is rendered many times.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntityModel } from '../../src/engine/model/types.ts';
import { catalog } from '../../src/client/renderers/catalog.ts';
import { EntityDetail } from '../../src/client/renderers/detail/index.ts';
import { renderWithApi } from '../../src/client/renderers/testing/providers.tsx';
import { EntityScreen } from '../../src/client/renderers/EntityPage.tsx';
import { EntityForm } from '../../src/client/renderers/form/EntityForm.tsx';
import { buttonsOf } from '../../src/client/renderers/gallery/permissions.ts';
import { createFakeHttp } from '../../src/client/renderers/testing/fake-http.ts';
import { sampleOf } from '../support/prng.ts';

const RENDERED_PER_RUN = 16;
const models = sampleOf('rendered entities', Object.values(catalog().entities), RENDERED_PER_RUN);
const permissions = buttonsOf('administrator');

afterEach(cleanup);

/** Fields the form lays out for a user to fill (what x-layout names, less read-only, hidden and conditional ones). */
function editableLabels(model: EntityModel): string[] {
  const named = new Set(model.layout.sections.flatMap((s) => s.fields));
  return model.fields
    .filter(
      (f) =>
        named.has(f.name) &&
        !f.system &&
        !f.readOnly &&
        !f.writeOnly &&
        !f.rules?.visibleIf &&
        f.ui?.widget !== 'hidden' &&
        !(f.ui?.hidden as string[] | undefined)?.includes('create'),
    )
    .map((f) => f.label.zh);
}

describe.each(models.map((m) => [m.key, m] as const))('%s', (_key, model) => {
  it('lists its records under the x-list columns', async () => {
    const http = createFakeHttp(catalog());
    renderWithApi(<EntityScreen model={model} />, { http, permissions });
    for (const column of model.list.columns) expect(await screen.findAllByText(model.fieldMap[column.field].label.zh)).not.toHaveLength(0);
    await waitFor(() => expect(document.querySelector('[data-testid="entity-list"]')?.getAttribute('aria-busy')).not.toBe('true'));
    expect(http.calls.some((c) => c.url.startsWith(model.api))).toBe(true);
  });

  it('offers a form with every editable field of its layout', async () => {
    renderWithApi(<EntityForm model={model} mode="create" onDone={() => undefined} />, { http: createFakeHttp(catalog()), permissions });
    for (const label of editableLabels(model)) expect(await screen.findAllByText(label), label).not.toHaveLength(0);
    for (const detail of model.details) expect(await screen.findAllByText(detail.label.zh)).not.toHaveLength(0);
  });

  it('shows a record read-only', async () => {
    const http = createFakeHttp(catalog());
    const record = http.tables.get(model.key)![0];
    renderWithApi(<EntityDetail model={model} id={String(record.id)} />, { http, permissions });
    const title = model.titleField && model.fieldMap[model.titleField];
    if (title && !title.ref && !title.dict && !title.options && typeof record[title.name] === 'string') {
      expect(await screen.findAllByText(record[title.name])).not.toHaveLength(0);
    }
    for (const section of model.layout.sections) expect(await screen.findAllByText(section.title.zh)).not.toHaveLength(0);
  });
});
