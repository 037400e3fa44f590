// A saved document's related documents: every document type whose searchable reference field refers
// to this type (a settlement's contract, a monthly demand's plan) and that the user may open, with how
// many of them refer to this record; each opens its list filtered to this record (list/urlFilters.ts).
// From a contract one reaches its settlements, and from one of them its warnings.
import { useQueries } from '@tanstack/react-query';
import { Space, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import type { Row } from '../extensions.ts';
import { useHttp } from '../http-context.tsx';
import { useListLink } from '../links.ts';

interface Referrer {
  model: EntityModel;
  field: string;
  value: string;
  href: string;
}

/** The document types that may list this record's referrers, with the address of each filtered list. */
export function referrersOf(model: EntityModel, record: Row, linkOf: ReturnType<typeof useListLink>): Referrer[] {
  const out: Referrer[] = [];
  for (const other of Object.values(catalog().entities)) {
    for (const s of other.search) {
      const field = other.fieldMap[s.field];
      if (s.operator !== 'equal' || field?.ref?.entity !== model.key || field.ref.separator) continue;
      const value = record[field.ref.valueField || 'id'];
      if (value === undefined || value === null || value === '') continue;
      const href = linkOf(other, { [s.field]: String(value) });
      if (href) out.push({ model: other, field: s.field, value: String(value), href });
      break;
    }
  }
  return out;
}

export function RelatedDocuments({ model, record }: { model: EntityModel; record: Row }) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const linkOf = useListLink();
  const referrers = referrersOf(model, record, linkOf);
  const counts = useQueries({
    queries: referrers.map((r) => ({
      queryKey: ['list', r.model.key, 'count', r.field, r.value],
      staleTime: 30_000,
      queryFn: () =>
        http
          .get<{ total: number }>(`${r.model.api}/list`, { [`${r.field}_equal`]: r.value, size: 1 }, { silent: true })
          .then((p) => p.total)
          .catch(() => 0),
    })),
  });
  const shown = referrers.map((r, i) => ({ ...r, count: counts[i].data })).filter((r) => r.count);
  if (!shown.length) return null;
  return (
    <section className="zs-detail-section" data-testid="related-documents">
      <Typography.Title level={5}>{t('detail.related')}</Typography.Title>
      <Space wrap>
        {shown.map((r) => (
          <Link key={r.model.key} href={r.href}>
            <Tag color="blue" style={{ cursor: 'pointer' }}>
              {r.model.label[lang]} {r.count}
            </Tag>
          </Link>
        ))}
      </Space>
    </section>
  );
}
