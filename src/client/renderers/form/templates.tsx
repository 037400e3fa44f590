// rjsf templates of the schema form: x-layout sections (cards on a page, titled groups in a
// dialog) over a grid of `columns`, labels for our own fields, and rjsf's few strings translated.
import { Templates } from '@rjsf/antd';
import { TranslatableString, type FieldTemplateProps, type ObjectFieldTemplateProps } from '@rjsf/utils';
import { Card, Col, Divider, Row } from 'antd';
import type { ReactNode } from 'react';
import { translate } from '../../i18n/useT.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import type { FormContextValue } from './context.ts';

const AntdFieldTemplate = Templates.FieldTemplate!;

/** rjsf leaves the label off custom fields; ours are ordinary inputs and keep it. */
export function FieldTemplate(props: FieldTemplateProps) {
  const own = props.uiSchema?.['ui:field'] === 'model';
  return <AntdFieldTemplate {...props} displayLabel={own || props.displayLabel} />;
}

function Section({ title, page, first, children }: { title?: string; page: boolean; first: boolean; children: ReactNode }) {
  if (page)
    return (
      <Card size="small" title={title} style={{ marginBottom: 16 }}>
        {children}
      </Card>
    );
  return (
    <>
      {title && !first ? (
        <Divider titlePlacement="start" plain>
          {title}
        </Divider>
      ) : null}
      {children}
    </>
  );
}

/** The root object: x-layout sections, each a row of columns (x-ui.span or 24 / columns). */
export function SectionsTemplate({ properties, registry }: ObjectFieldTemplateProps) {
  const { layout } = registry.formContext as FormContextValue;
  const byName = new Map(properties.map((p) => [p.name, p]));
  const page = layout.container === 'page';
  const shown = layout.sections
    .map((s) => ({ ...s, items: s.fields.map((f) => byName.get(f)).filter((p) => p && !p.hidden) }))
    .filter((s) => s.items.length > 0);
  return (
    <div className="zs-form-sections">
      {shown.map((s, i) => (
        <Section key={s.title ?? i} title={shown.length > 1 || page ? s.title : undefined} page={page} first={i === 0}>
          <Row gutter={16}>
            {s.items.map((p) => (
              <Col key={p!.name} xs={24} md={layout.spans[p!.name] ?? 24}>
                {p!.content}
              </Col>
            ))}
          </Row>
        </Section>
      ))}
    </div>
  );
}

const STRINGS: Partial<Record<TranslatableString, MessageKey>> = {
  [TranslatableString.ErrorsLabel]: 'form.errors',
  [TranslatableString.AddButton]: 'form.add',
  [TranslatableString.AddItemButton]: 'grid.add',
  [TranslatableString.CopyButton]: 'grid.copy',
  [TranslatableString.RemoveButton]: 'form.remove',
  [TranslatableString.YesLabel]: 'form.yes',
  [TranslatableString.NoLabel]: 'form.no',
  [TranslatableString.CloseLabel]: 'form.close',
};

/** rjsf's own strings in the user's language (the rest never show on our forms). */
export function translatorFor(lang: 'zh' | 'en') {
  return (key: TranslatableString, params?: string[]): string => {
    const own = STRINGS[key];
    if (own) return translate(lang, own);
    return (params ?? []).reduce((text, p, i) => text.replace(`%${i + 1}`, p), key as string);
  };
}
