// Every edit widget, each as the user sees it: normal (editable, with its value shown below),
// read-only, and with a validation message. Fields come from the real schemas; the in-memory API
// answers dictionaries, reference options and trees.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Col, Form, Row, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { t as engineT } from '../../../engine/i18n/messages.ts';
import type { FieldModel } from '../../../engine/model/types.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { HttpProvider } from '../http-context.tsx';
import { createFakeHttp } from '../testing/fake-http.ts';
import { FieldControl, widgetNameOf } from './FieldControl.tsx';
import type { WidgetName } from './types.ts';

const http = createFakeHttp(catalog());
const entities = catalog().entities;
const detailField = (entity: string, name: string) => entities[entity].details[0].fieldMap[name];

/** A field with another widget than its schema's (for widgets no schema uses yet). */
const withWidget = (field: FieldModel, widget: WidgetName, extra: Partial<FieldModel> = {}): FieldModel => ({
  ...field,
  ...extra,
  ui: { ...field.ui, widget },
});

/** A sample field and value per widget. */
const samples: Record<Exclude<WidgetName, 'hidden'>, { field: FieldModel; value: unknown }> = {
  text: { field: entities.param.fieldMap.paramName, value: '账号初始密码' },
  textarea: { field: entities.param.fieldMap.paramValue, value: '123456' },
  password: { field: entities.user.fieldMap.password, value: 'secret' },
  number: { field: detailField('materialTotalDemand', 'designQty'), value: 1250.5 },
  money: { field: entities.project.fieldMap.targetCost, value: '123456789012.34' },
  date: { field: entities.materialTotalDemand.fieldMap.planDate, value: '2026-03-15' },
  dateRange: { field: withWidget(entities.materialTotalDemand.fieldMap.planDate, 'dateRange'), value: '2026-03-01,2026-03-31' },
  month: { field: detailField('materialTotalDemand', 'plannedStartMonth'), value: '2026-05' },
  select: { field: entities.goodsArchives.fieldMap.status, value: 'enabled' },
  dict: { field: entities.project.fieldMap.projectType, value: 'building' },
  ref: { field: entities.materialTotalDemand.fieldMap.projectId, value: http.tables.get('project')![0].id },
  treeSelect: { field: entities.dict.fieldMap.parentId, value: '0' },
  treeMultiSelect: {
    field: entities.tenantPackage.fieldMap.menuId,
    value: http.tables
      .get('menu')!
      .slice(0, 3)
      .map((m) => m.id)
      .join(','),
  },
  upload: {
    field: withWidget(entities.materialTotalDemand.fieldMap.basis, 'upload', { label: { zh: '附件', en: 'Attachment' } }),
    value: 'https://oss.example.com/plan/drawing-review.pdf',
  },
  image: { field: entities.user.fieldMap.avatar, value: undefined },
  switch: { field: entities.dict.fieldMap.isSealed, value: 0 },
};

function Variant({
  title,
  field,
  initial,
  readOnly,
  error,
}: {
  title: string;
  field: FieldModel;
  initial: unknown;
  readOnly?: boolean;
  error?: string;
}) {
  const lang = useAtomValue(langAtom);
  const [value, setValue] = useState(initial);
  return (
    <Col xs={24} md={8}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <Form.Item
        label={field.label[lang]}
        required={field.required}
        validateStatus={error ? 'error' : undefined}
        help={error}
        layout="vertical"
      >
        <FieldControl field={field} value={value} onChange={setValue} readOnly={readOnly} invalid={Boolean(error)} values={{}} />
      </Form.Item>
      {!readOnly && !error && <Typography.Text code>{JSON.stringify(value) ?? 'undefined'}</Typography.Text>}
    </Col>
  );
}

function Showcase({ widget }: { widget: Exclude<WidgetName, 'hidden'> }) {
  const lang = useAtomValue(langAtom);
  const { field, value } = samples[widget];
  const label = lang === 'en' ? field.label.en.toLowerCase() : field.label.zh;
  const prompt = engineT(['text', 'textarea', 'password', 'number', 'money'].includes(widget) ? 'enter' : 'choose', lang, { field: label });
  return (
    <HttpProvider value={http}>
      <Typography.Title level={5}>
        {widget} · {widgetNameOf(field)}
      </Typography.Title>
      <Row gutter={24}>
        <Variant title={lang === 'en' ? 'Normal' : '正常'} field={field} initial={value} />
        <Variant title={lang === 'en' ? 'Read-only' : '只读'} field={field} initial={value} readOnly />
        <Variant title={lang === 'en' ? 'Error' : '错误'} field={field} initial={undefined} error={prompt} />
      </Row>
    </HttpProvider>
  );
}

const meta: Meta<typeof Showcase> = { title: 'Renderers/Widgets', component: Showcase };
export default meta;
type Story = StoryObj<typeof Showcase>;

export const Text: Story = { args: { widget: 'text' } };
export const TextArea: Story = { args: { widget: 'textarea' } };
export const Password: Story = { args: { widget: 'password' } };
export const NumberInput: Story = { args: { widget: 'number' } };
export const Money: Story = { args: { widget: 'money' } };
export const DateInput: Story = { args: { widget: 'date' } };
export const DateRange: Story = { args: { widget: 'dateRange' } };
export const Month: Story = { args: { widget: 'month' } };
export const Select: Story = { args: { widget: 'select' } };
export const Dictionary: Story = { args: { widget: 'dict' } };
export const Reference: Story = { args: { widget: 'ref' } };
export const TreeSelect: Story = { args: { widget: 'treeSelect' } };
export const TreeMultiSelect: Story = { args: { widget: 'treeMultiSelect' } };
export const Upload: Story = { args: { widget: 'upload' } };
export const Image: Story = { args: { widget: 'image' } };
export const Switch: Story = { args: { widget: 'switch' } };
