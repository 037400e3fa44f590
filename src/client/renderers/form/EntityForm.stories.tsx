// The schema form in its states: the parameter and dictionary dialogs (880 wide), the material
// total demand page with its detail rows (and with 500 rows), loading, a save the server refuses
// (its messages on a field and a grid cell), and read-only. Every story has its own in-memory API.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { catalog } from '../catalog.ts';
import { HttpProvider } from '../http-context.tsx';
import { createFakeHttp, type FakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';
import { EntityForm } from './EntityForm.tsx';
import { FormDialog } from './FormDialog.tsx';
import { FormPage } from './FormPage.tsx';

const entities = catalog().entities;

function WithApi({ options, prepare, children }: { options?: FakeHttpOptions; prepare?: (http: FakeHttp) => void; children: ReactNode }) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog(), options);
    prepare?.(fake);
    return fake;
  });
  return <HttpProvider value={http}>{children}</HttpProvider>;
}

/** The first demand plan of the fake API, with `count` detail rows. */
export function withDemandRows(count: number) {
  return (http: FakeHttp) => {
    const plan = http.tables.get('materialTotalDemand')![0];
    const goods = http.tables.get('goodsArchives')!;
    plan.details = Array.from({ length: count }, (_, i) => {
      const g = goods[i % goods.length];
      return {
        id: String(5_000_000 + i),
        goodsId: g.id,
        goodsCode: g.code,
        goodsName: g.name,
        spec: g.spec,
        unit: g.unit,
        workPart: `${(i % 7) + 1}号楼`,
        designQty: 100 + i,
        lossRate: 2,
        changeQty: i % 5,
        budgetPrice: 3.5 + (i % 10),
        plannedStartMonth: '2026-03',
        plannedEndMonth: '2026-09',
        sortNo: i + 1,
      };
    });
  };
}

/** Fake APIs are seeded the same way, so the first record of an entity has the same id in each. */
const seeded = createFakeHttp(catalog());
const firstId = (entity: string) => String(seeded.tables.get(entity)![0].id);

function DialogStory({ entity, mode }: { entity: string; mode: 'create' | 'edit' }) {
  const [open, setOpen] = useState(true);
  const [saved, setSaved] = useState<unknown>(null);
  const model = entities[entity];
  return (
    <WithApi>
      <Space orientation="vertical">
        <Button type="primary" onClick={() => setOpen(true)}>
          {model.label.zh}
        </Button>
        {saved ? <Typography.Text code>{JSON.stringify(saved).slice(0, 300)}</Typography.Text> : null}
      </Space>
      <FormDialog
        model={model}
        mode={mode}
        id={mode === 'edit' ? firstId(entity) : undefined}
        open={open}
        onClose={(s) => {
          setOpen(false);
          setSaved(s);
        }}
      />
    </WithApi>
  );
}

function PageStory({
  mode,
  rows,
  options,
  readOnly,
}: {
  mode: 'create' | 'edit';
  rows?: number;
  options?: FakeHttpOptions;
  readOnly?: boolean;
}) {
  const model = entities.materialTotalDemand;
  const [closed, setClosed] = useState<string | null>(null);
  const body = readOnly ? (
    <EntityForm model={model} mode="edit" id={firstId('materialTotalDemand')} readOnly onDone={() => setClosed('closed')} />
  ) : (
    <FormPage
      model={model}
      mode={mode}
      id={mode === 'edit' ? firstId('materialTotalDemand') : undefined}
      onClose={(s) => setClosed(s ? 'saved' : 'cancelled')}
    />
  );
  return (
    <WithApi options={options} prepare={rows ? withDemandRows(rows) : undefined}>
      {closed ? <Button onClick={() => setClosed(null)}>{closed} · reopen</Button> : body}
    </WithApi>
  );
}

const meta: Meta = { title: 'Renderers/EntityForm' };
export default meta;
type Story = StoryObj;

export const ParamCreate: Story = { render: () => <DialogStory entity="param" mode="create" /> };
export const ParamEdit: Story = { render: () => <DialogStory entity="param" mode="edit" /> };
export const DictionaryDialog880: Story = { render: () => <DialogStory entity="dict" mode="create" /> };
export const TenantPackage: Story = { render: () => <DialogStory entity="tenantPackage" mode="create" /> };
export const DemandPlanCreate: Story = { render: () => <PageStory mode="create" /> };
export const DemandPlanEdit: Story = { render: () => <PageStory mode="edit" rows={12} /> };
export const DemandPlan500Rows: Story = { render: () => <PageStory mode="edit" rows={500} /> };
export const Loading: Story = { render: () => <PageStory mode="edit" options={{ hang: true }} /> };
export const ServerError: Story = {
  render: () => (
    <PageStory
      mode="edit"
      rows={5}
      options={{
        saveErrors: [
          { path: '/title', message: '计划名称 计划名称230 已存在' },
          { path: '/details/2/designQty', message: '物资明细第3行 图纸设计量不能小于0' },
        ],
      }}
    />
  ),
};
export const ReadOnly: Story = { render: () => <PageStory mode="edit" rows={5} readOnly /> };
