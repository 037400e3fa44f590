// The display types every schema can use: text, money, quantity, percent, number, date, datetime,
// month, boolean, options, tag, dict, ref (one or comma-joined), capital, image, file, code, message.
import { Image, Tag, Typography } from 'antd';
import { renderText } from '../../../engine/i18n/stored-text.ts';
import { useDictionary, useReferenceLabels } from '../data.ts';
import { translate } from '../../i18n/useT.ts';
import type { DisplayName } from '../../../engine/dialect/ui-names.ts';
import type { DisplayComponent, DisplayProps } from './display-type.ts';
import {
  booleanOf,
  capitalsText,
  dateText,
  displayOptions,
  fileName,
  joinLabels,
  moneyText,
  monthText,
  numberText,
  optionText,
  percentText,
  quantityText,
  valuesOf,
} from './text.ts';

function Money({ field, value, compact, lang }: DisplayProps) {
  const text = moneyText(field, value);
  const capitals = !compact && displayOptions(field).capitals === true ? capitalsText(field, value) : '';
  if (!capitals) return text;
  return (
    <span className="zs-display-money">
      <span>{text}</span>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }} data-testid="capitals">
        {translate(lang, 'display.capitals')}:{capitals}
      </Typography.Text>
    </span>
  );
}

function Capital({ field, value }: DisplayProps) {
  return capitalsText(field, value) || moneyText(field, value);
}

function YesNo({ value, lang }: DisplayProps) {
  const yes = booleanOf(value);
  if (yes === undefined) return String(value);
  return translate(lang, yes ? 'display.yes' : 'display.no');
}

const TAG_COLOURS = ['blue', 'default', 'orange', 'green', 'purple', 'cyan', 'magenta', 'gold'];

function OptionTag({ field, value, lang }: DisplayProps) {
  const colours = (displayOptions(field).colors ?? {}) as Record<string, string>;
  const index = field.options?.findIndex((o) => String(o.value) === String(value)) ?? -1;
  const colour = colours[String(value)] ?? (index >= 0 ? TAG_COLOURS[index % TAG_COLOURS.length] : 'default');
  const label = field.options ? (
    optionText(field, value, lang)
  ) : field.kind === 'boolean' ? (
    <YesNo field={field} value={value} lang={lang} compact />
  ) : (
    String(value)
  );
  return (
    <Tag color={colour} style={{ marginInlineEnd: 0 }}>
      {label}
    </Tag>
  );
}

function Dict({ field, value, lang }: DisplayProps) {
  const { data } = useDictionary(field.dict);
  const keys = field.dict?.multiple ? valuesOf(value) : [String(value)];
  return joinLabels(
    keys.map((k) => data?.find((d) => d.value === k)?.label ?? k),
    lang,
  );
}

function Ref({ field, value, labels, lang }: DisplayProps) {
  const ref = field.ref;
  const ids = ref?.separator ? valuesOf(value, ref.separator) : [String(value)];
  const lookUp = !labels ? ref?.entity : undefined;
  const { data } = useReferenceLabels(lookUp, ids, ref?.valueField);
  // while labels load the cell stays blank rather than flashing ids
  const label = (id: string) => (labels ? labels[id] : lookUp ? data?.[id] : id) ?? '';
  return joinLabels(ids.map(label).filter(Boolean), lang);
}

function ImageDisplay({ value, compact }: DisplayProps) {
  const size = compact ? 28 : 80;
  return <Image src={String(value)} width={size} height={size} style={{ objectFit: 'cover', borderRadius: 4 }} preview={!compact} />;
}

/** File links; an attachment field (x-ref to the attachment records by link) shows the uploaded names. */
function Files({ field, value }: DisplayProps) {
  const urls = valuesOf(value, field.ref?.separator);
  const { data: names } = useReferenceLabels(field.ref?.entity, field.ref ? urls : [], field.ref?.valueField);
  return (
    <span className="zs-display-files">
      {urls.map((url, i) => (
        <span key={url}>
          {i > 0 && ', '}
          <a href={url} target="_blank" rel="noreferrer">
            {names?.[url] || fileName(url)}
          </a>
        </span>
      ))}
    </span>
  );
}

/** Preformatted text (stack traces, request parameters): its lines kept, scrolling when long; one line in a list cell. */
function Code({ value, compact }: DisplayProps) {
  const text = typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
  if (compact) return <span className="zs-display-code-line">{text.split('\n', 1)[0]}</span>;
  return (
    <pre
      className="zs-display-code"
      style={{
        margin: 0,
        maxHeight: 360,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 12,
      }}
    >
      {text}
    </pre>
  );
}

/** The displays by name: every x-display type and the ones a field's kind implies. */
export const BUILT_IN_DISPLAYS: Readonly<Record<DisplayName, DisplayComponent>> = {
  text: ({ value }) => (typeof value === 'object' ? JSON.stringify(value) : String(value)),
  money: Money,
  capital: Capital,
  quantity: ({ field, value }) => quantityText(field, value),
  percent: ({ field, value }) => percentText(field, value),
  number: ({ field, value }) => numberText(field, value),
  date: ({ value, lang }) => dateText(value, lang),
  datetime: ({ value, lang }) => dateText(value, lang, true),
  month: ({ value, lang }) => monthText(value, lang),
  boolean: YesNo,
  options: ({ field, value, lang }) => optionText(field, value, lang),
  tag: OptionTag,
  dict: Dict,
  ref: Ref,
  image: ImageDisplay,
  file: Files,
  code: Code,
  // the server answers stored texts rendered; a value that reached the page otherwise is rendered here
  message: ({ value, lang }) => String(renderText(value, lang)),
};
