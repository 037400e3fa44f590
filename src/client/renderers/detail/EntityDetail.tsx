// The read-only view of one record, from its schema: the sections of x-layout with their fields
// shown by FieldDisplay (labels, amounts, dates, Chinese capitals under the amount marked for it),
// detail rows as tables with totals, and the audit fields. Loads `${api}/detail?id=` under the
// query key ['detail', entity, id], so a save or delete elsewhere refreshes it.
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import type { Row } from '../extensions.ts';
import { useHttp } from '../http-context.tsx';
import { readRecord } from '../data.ts';
import { useRegistry } from '../registry.ts';
import { AuditInfo } from './AuditInfo.tsx';
import { DetailRowsTable } from './DetailRowsTable.tsx';
import { RelatedDocuments } from './RelatedDocuments.tsx';
import { lineSpans, viewSections, type ViewSection } from './sections.ts';

export interface EntityDetailProps {
  model: EntityModel;
  id: string;
}

function Section({ model, section, record }: { model: EntityModel; section: ViewSection; record: Row }) {
  const lang = useAtomValue(langAtom);
  const columns = model.layout.columns;
  const spans = lineSpans(section.fields, columns);
  const items = section.fields.map((field, i) => ({
    key: field.name,
    label: field.label[lang],
    span: spans[i],
    children: <FieldDisplay field={field} value={record[field.name]} />,
  }));
  return (
    <section className="zs-detail-section">
      {section.title && <Typography.Title level={5}>{section.title[lang]}</Typography.Title>}
      {items.length > 0 && (
        <Descriptions bordered size="small" column={columns} items={items} styles={{ label: { whiteSpace: 'nowrap' } }} />
      )}
      {section.details.map((detail) => (
        <div key={detail.name} style={{ marginTop: items.length ? 12 : 0 }}>
          {(section.fields.length > 0 || !section.title) && <Typography.Text strong>{detail.label[lang]}</Typography.Text>}
          <DetailRowsTable detail={detail} rows={record[detail.name] as Row[] | undefined} />
        </div>
      ))}
    </section>
  );
}

export function EntityDetail({ model, id }: EntityDetailProps) {
  const panels = useRegistry().details;
  const t = useT();
  const http = useHttp();
  const query = useQuery({
    queryKey: ['detail', model.key, id],
    queryFn: () => readRecord<Row>(http, model, id),
  });
  const record = query.data;
  return (
    <div
      className="zs-detail"
      data-testid="entity-detail"
      aria-busy={query.isFetching}
      style={{ display: 'flex', flexDirection: 'column', gap: 16 }}
    >
      {query.isLoading && <Skeleton active paragraph={{ rows: 8 }} />}
      {query.error && (
        <Alert
          type="error"
          showIcon
          title={t('detail.loadFailed', { message: query.error.message })}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('list.retry')}
            </Button>
          }
        />
      )}
      {record && panels?.map((Panel, i) => <Panel key={i} model={model} id={id} />)}
      {record && <RelatedDocuments model={model} record={record} />}
      {record && viewSections(model, record).map((section, i) => <Section key={i} model={model} section={section} record={record} />)}
      {record && <AuditInfo model={model} record={record} columns={model.layout.columns} />}
    </div>
  );
}
