// The column settings of a list, in a popover: show or hide each column, put them in another
// order (drag a row, or the up/down buttons), set a width; "reset" returns to the schema's columns.
// Everything is kept per user and entity (columnPrefs.ts).
import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, InputNumber, Popover, Tooltip } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import type { ColumnPrefs } from './columnPrefs.ts';

export interface ColumnSettingsProps {
  model: EntityModel;
  prefs: ColumnPrefs;
  /** Current widths by column (the schema's, unless the person changed them). */
  widths: Record<string, number>;
  onChange: (patch: Partial<ColumnPrefs>) => void;
  onReset: () => void;
}

function moved(order: string[], from: number, to: number): string[] {
  const next = order.slice();
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id);
  return next;
}

function SettingsList({ model, prefs, widths, onChange, onReset }: ColumnSettingsProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [dragging, setDragging] = useState<number | null>(null);
  const order = prefs.order;
  return (
    <div className="zs-column-settings" data-testid="column-settings">
      <ul>
        {order.map((id, index) => (
          <li
            key={id}
            draggable
            onDragStart={() => setDragging(index)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => {
              if (dragging !== null && dragging !== index) onChange({ order: moved(order, dragging, index) });
              setDragging(null);
            }}
            className={dragging === index ? 'dragging' : undefined}
          >
            <Tooltip title={t('list.dragToReorder')}>
              <HolderOutlined className="zs-column-handle" />
            </Tooltip>
            <Checkbox
              checked={prefs.visibility[id] !== false}
              onChange={(e) => onChange({ visibility: { ...prefs.visibility, [id]: e.target.checked } })}
            >
              {model.fieldMap[id].label[lang]}
            </Checkbox>
            <InputNumber
              size="small"
              min={60}
              max={800}
              step={10}
              value={widths[id]}
              aria-label={`${model.fieldMap[id].label[lang]} ${t('list.columnWidth')}`}
              onChange={(w) => typeof w === 'number' && onChange({ sizing: { ...prefs.sizing, [id]: w } })}
              style={{ width: 76 }}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              aria-label={t('list.moveUp')}
              disabled={index === 0}
              onClick={() => onChange({ order: moved(order, index, index - 1) })}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              aria-label={t('list.moveDown')}
              disabled={index === order.length - 1}
              onClick={() => onChange({ order: moved(order, index, index + 1) })}
            />
          </li>
        ))}
      </ul>
      <Button size="small" onClick={onReset}>
        {t('list.columnsReset')}
      </Button>
    </div>
  );
}

export function ColumnSettings(props: ColumnSettingsProps) {
  const t = useT();
  return (
    <Popover trigger="click" placement="bottomRight" title={t('list.columns')} content={<SettingsList {...props} />}>
      <Tooltip title={t('list.columns')}>
        <Button icon={<SettingOutlined />} aria-label={t('list.columns')} />
      </Tooltip>
    </Popover>
  );
}
