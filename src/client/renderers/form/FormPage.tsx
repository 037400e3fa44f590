// The form as a page (x-layout container "page", e.g. the material total demand plan with its
// rows): a card titled 新增X / 编辑X with a back button; sections show as cards inside it.
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { EntityForm } from './EntityForm.tsx';

export interface FormPageProps {
  model: EntityModel;
  mode?: 'create' | 'edit';
  id?: string;
  initial?: Record<string, unknown>;
  /** After a save (the saved record) or back / cancel (null). */
  onClose: (saved: Record<string, any> | null) => void;
}

export function FormPage({ model, mode, id, initial, onClose }: FormPageProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const effective = mode ?? (id ? 'edit' : 'create');
  return (
    <Card
      title={t(effective === 'edit' ? 'form.editTitle' : 'form.addTitle', { entity: model.label[lang] })}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => onClose(null)}>
          {t('form.back')}
        </Button>
      }
      styles={{ body: { paddingTop: 12 } }}
    >
      <EntityForm model={model} mode={effective} id={id} initial={initial} onDone={onClose} />
    </Card>
  );
}
