// Dictionary management in two arrangements: the dictionaries beside their entries
// (/dict-horizontal/index) or above them (/dict-vertical/index). Both add, edit and delete
// dictionaries and entries through the system dictionary's form (dialog width 880); a new entry
// starts under the chosen dictionary, with its code.
import { Col, Row } from 'antd';
import { useState } from 'react';
import { DictionaryPanel, ItemPanel, type DictEdit } from '../admin/dict/DictPanels.tsx';
import { useT } from '../i18n/useT.ts';
import { catalog } from '../renderers/catalog.ts';
import type { Row as Record } from '../renderers/extensions.ts';
import { FormDialog } from '../renderers/form/EntityForm.tsx';

function useDictPage() {
  const model = catalog().entities.dict;
  const [selected, setSelected] = useState<Record | null>(null);
  const [editing, setEditing] = useState<DictEdit | null>(null);
  const dialog = editing && <FormDialog model={model} id={editing.id} initial={editing.initial} onClose={() => setEditing(null)} />;
  return { model, selected, setSelected, setEditing, dialog };
}

export function DictHorizontal() {
  const t = useT();
  const page = useDictPage();
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} xl={11}>
          <DictionaryPanel model={page.model} selected={page.selected} onSelect={page.setSelected} onEdit={page.setEditing} />
        </Col>
        <Col xs={24} xl={13}>
          <ItemPanel model={page.model} parent={page.selected} onEdit={page.setEditing} emptyHint={t('admin.dict.pickOne')} />
        </Col>
      </Row>
      {page.dialog}
    </>
  );
}

export function DictVertical() {
  const t = useT();
  const page = useDictPage();
  return (
    <>
      <DictionaryPanel model={page.model} selected={page.selected} onSelect={page.setSelected} onEdit={page.setEditing} />
      <ItemPanel model={page.model} parent={page.selected} onEdit={page.setEditing} emptyHint={t('admin.dict.pickOneAbove')} />
      {page.dialog}
    </>
  );
}
