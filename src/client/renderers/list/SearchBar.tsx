// The search bar of a list, from x-search: a text input for contains-searches, a dictionary or
// option select for equality on coded values, a paged reference picker, a date range (创建时间 on
// createTime), a yes/no select for booleans. Search sends the filters; reset clears them.
import { SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel, FieldModel, Lang, SearchFieldModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { useDictionary } from '../data.ts';
import { filtersOf, type SearchValues } from './filters.ts';
import { ReferenceFilter } from './ReferenceFilter.tsx';

const WIDTH = { width: 180 };

function DictionaryFilter({
  field,
  ...rest
}: {
  field: FieldModel;
  value?: string | string[];
  onChange?: (v: string | string[]) => void;
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const { data } = useDictionary(field.dict);
  // a multi-select field is searched for any of the chosen values
  const multiple = field.dict?.multiple ? { mode: 'multiple' as const, maxTagCount: 'responsive' as const } : {};
  return <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={data ?? []} {...multiple} {...rest} />;
}

/** The input of one search field; Form.Item hands it value and onChange. */
function FilterInput({
  search,
  field,
  lang,
  placeholder,
  ...control
}: {
  search: SearchFieldModel;
  field: FieldModel;
  lang: Lang;
  placeholder: string;
}) {
  const t = useT();
  const props = { ...control, placeholder, style: WIDTH };
  if (search.operator === 'dateRange') return <DatePicker.RangePicker {...control} style={{ width: 260 }} />;
  if (field.dict) return <DictionaryFilter field={field} {...props} />;
  if (field.options)
    return <Select allowClear options={field.options.map((o) => ({ value: o.value as string, label: o.label[lang] }))} {...props} />;
  if (field.ref) return <ReferenceFilter field={field} widget={search.widget} {...props} />;
  if (field.kind === 'boolean')
    return (
      <Select
        allowClear
        options={[
          { value: 'true', label: t('display.yes') },
          { value: 'false', label: t('display.no') },
        ]}
        {...props}
      />
    );
  if (field.kind === 'date' || field.kind === 'datetime') return <DatePicker {...props} />;
  return <Input allowClear {...props} />;
}

export interface SearchBarProps {
  model: EntityModel;
  onSearch: (filters: Record<string, string>) => void;
  /** Values the bar opens with (from the page's address); 重置 clears them like any other. */
  initialValues?: SearchValues;
}

export function SearchBar({ model, onSearch, initialValues }: SearchBarProps) {
  const t = useT();
  const [form] = Form.useForm<SearchValues>();
  const lang = useAtomValue(langAtom);
  if (!model.search.length) return null;
  const labelOf = (s: SearchFieldModel, field: FieldModel) =>
    s.operator === 'dateRange' && s.field === 'createTime' ? t('common.createTimeRange') : field.label[lang];
  return (
    <Form
      form={form}
      initialValues={initialValues}
      layout="inline"
      className="zs-list-search"
      onFinish={(values) => onSearch(filtersOf(model, values))}
      role="search"
    >
      {model.search.map((s) => {
        const field = model.fieldMap[s.field];
        const label = labelOf(s, field);
        return (
          <Form.Item key={s.field} name={s.field} label={label}>
            <FilterInput search={s} field={field} lang={lang} placeholder={label} />
          </Form.Item>
        );
      })}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('common.search')}
          </Button>
          <Button
            onClick={() => {
              form.setFieldsValue(Object.fromEntries(model.search.map((s) => [s.field, undefined])));
              onSearch({});
            }}
          >
            {t('common.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
