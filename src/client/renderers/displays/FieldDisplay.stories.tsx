// Every display type, as the detail view shows it and as a list cell (compact) shows it, with values
// from the schemas' own fields; references and dictionaries are looked up in the in-memory API.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Descriptions } from 'antd';
import type { FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { useState } from 'react';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { FakeApi } from './FakeApi.tsx';
import { FieldDisplay } from './FieldDisplay.tsx';
import { displayTypeOf } from './display-type.ts';

const { materialTotalDemand: demand, goodsArchives: goods, project, user, tenant, menu, expenditureContract } = catalog().entities;

/** Two uploaded files of the in-memory API, as an attachment field holds them (by link). */
const ATTACHED = [
  { id: '9000001', originalName: '塔吊租赁合同扫描件.pdf', link: '/files/upload/20260315/0f3c2a.pdf', extension: 'pdf' },
  { id: '9000002', originalName: '设备进场清单.xlsx', link: '/files/upload/20260316/9b81de.xlsx', extension: 'xlsx' },
];
const line = demand.details[0].fieldMap;

/** A field of the catalog with another x-display (for the types no schema uses yet). */
const shownAs = (field: FieldModel, type: string, options?: Record<string, unknown>): FieldModel => ({
  ...field,
  display: { type, ...(options && { options }) },
});

interface Sample {
  field: FieldModel;
  value: unknown;
}

/** Sample values; references point at records of the in-memory API. */
function samples(http: FakeHttp): Sample[] {
  const roles = http.tables.get('role')!;
  return [
    { field: demand.fieldMap.title, value: '主体结构材料计划' },
    { field: demand.fieldMap.totalAmount, value: 1234567.8 },
    { field: line.budgetPrice, value: '4123.5' },
    { field: line.designQty, value: '1200.5000' },
    { field: line.lossRate, value: 2.5 },
    { field: demand.fieldMap.versionNo, value: 3 },
    { field: demand.fieldMap.planDate, value: '2026-03-15' },
    { field: demand.fieldMap.createTime, value: '2026-03-15 09:30:00' },
    { field: line.plannedStartMonth, value: '2026-04' },
    { field: goods.fieldMap.isTurnover, value: true },
    { field: user.fieldMap.status, value: 2 },
    { field: goods.fieldMap.status, value: 'enabled' },
    { field: menu.fieldMap.isOpen, value: 2 },
    { field: project.fieldMap.projectType, value: 'municipal' },
    { field: demand.fieldMap.projectId, value: http.tables.get('project')![0].id },
    { field: user.fieldMap.roleId, value: `${roles[0].id},${roles[1].id}` },
    { field: shownAs(line.amount, 'capital'), value: 10086.5 },
    {
      field: tenant.fieldMap.backgroundUrl,
      value:
        'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80"><rect width="80" height="80" fill="%23409EFF"/></svg>',
    },
    { field: shownAs(demand.fieldMap.basis, 'file'), value: '/files/%E6%96%BD%E5%B7%A5%E5%9B%BE.pdf,/files/budget.xlsx' },
    { field: expenditureContract.fieldMap.attachments, value: ATTACHED.map((a) => a.link).join(',') },
    { field: demand.fieldMap.remark, value: null },
  ];
}

function Gallery({ compact }: { compact: boolean }) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog(), { rows: 3 });
    fake.tables.get('attach')!.push(...ATTACHED);
    return fake;
  });
  const items = samples(http).map(({ field, value }, i) => ({
    key: i,
    label: `${field.label.zh} · ${displayTypeOf(field)}`,
    children: <FieldDisplay field={field} value={value} compact={compact} />,
  }));
  return (
    <FakeApi http={http}>
      <Descriptions bordered size="small" column={2} items={items} />
    </FakeApi>
  );
}

const meta: Meta<typeof Gallery> = { title: 'Renderers/FieldDisplay', component: Gallery, parameters: { layout: 'padded' } };
export default meta;
type Story = StoryObj<typeof Gallery>;

/** As the detail view shows values (capitals under the marked amount, images with preview). */
export const EveryType: Story = { args: { compact: false } };

/** As list cells show them: one line each. */
export const InListCells: Story = { args: { compact: true } };
