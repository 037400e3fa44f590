// The form in a dialog (x-layout container "dialog", the default): titled 新增X / 编辑X, as wide as
// x-layout.width (the dictionary dialogs: 880) or as the number of columns needs.
import { Modal } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { EntityForm } from './EntityForm.tsx';
import { dialogWidth } from './schema.ts';

export interface FormDialogProps {
  model: EntityModel;
  /** Defaults to "edit" when an id is given, else "create". */
  mode?: 'create' | 'edit';
  id?: string;
  /** Values a new record starts with. */
  initial?: Record<string, unknown>;
  /** Defaults to true (mount the dialog to open it). */
  open?: boolean;
  /** After a save (the saved record) or a cancel (null). */
  onClose: (saved: Record<string, any> | null) => void;
}

export function FormDialog({ model, mode, id, initial, open = true, onClose }: FormDialogProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const effective = mode ?? (id ? 'edit' : 'create');
  return (
    <Modal
      open={open}
      title={t(effective === 'edit' ? 'form.editTitle' : 'form.addTitle', { entity: model.label[lang] })}
      width={dialogWidth(model)}
      footer={null}
      mask={{ closable: false }}
      destroyOnHidden
      onCancel={() => onClose(null)}
    >
      {open && <EntityForm model={model} mode={effective} id={id} initial={initial} onDone={onClose} />}
    </Modal>
  );
}
