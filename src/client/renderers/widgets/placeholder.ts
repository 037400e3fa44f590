// What an empty input says: the schema's own placeholder in Chinese (x-ui.placeholder is written
// in Chinese), else 请输入X / 请选择X and their English forms, phrased as the validation prompts.
import { t } from '../../../engine/i18n/messages.ts';
import type { FieldModel, Lang } from '../../../engine/model/types.ts';
import { isChosen } from '../../../engine/validate/record.ts';

export function placeholderOf(field: FieldModel, lang: Lang): string {
  const own = field.ui?.placeholder;
  if (lang === 'zh' && typeof own === 'string') return own;
  const label = lang === 'en' ? field.label.en.toLowerCase() : field.label.zh;
  return t(isChosen(field) ? 'choose' : 'enter', lang, { field: label });
}
