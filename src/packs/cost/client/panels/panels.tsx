// The cost rules' face in the client's forms and detail views, given to the renderers through their
// registry (renderers/registry.ts; the app's: app/registry.ts), so that the generic form and detail
// view never name them:
//   cumulative  a settlement's previous and cumulative figures, filled as its contract and period are chosen;
//   warnings    the early warnings the record raises while one types, its open warning records,
//               and before a submission the warnings it raises, which a hard control may refuse;
//   print       a settlement's this-period / previous / cumulative lines on its printed form.
import { App } from 'antd';
import type { RendererRegistry } from '../../../../client/renderers/registry.ts';
import type { FormExtension, SubmitCheck } from '../../../../client/renderers/form/extension.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { CumulativeNote, useCumulatives } from './cumulative.tsx';
import { cumulativePairs } from './print-pairs.ts';
import { LiveWarnings, RecordedWarnings, refused, SubmitWarnings, useAskPreview, useLiveWarnings, useStoredPreview } from './warnings.tsx';

const cumulativeForm: FormExtension = ({ model, id, store, header, setHeader, editable }) => {
  const answer = useCumulatives(model, id, store, header, setHeader, editable);
  return { top: editable && <CumulativeNote answer={answer} /> };
};

const warningsForm: FormExtension = ({ model, id, store, header, editable }) => {
  const t = useT();
  const { modal } = App.useApp();
  const live = useLiveWarnings(model, id, store, header, editable);
  const askPreview = useAskPreview(model, id, store);
  /** The warnings a submission raises, and whether the clerk still submits (none: no question). */
  const beforeSubmit = async (): Promise<boolean> => {
    const preview = await askPreview().catch(() => null);
    if (!preview?.warnings.length) return true;
    const critical = preview.warnings.some((w) => w.warnLevel === 'critical');
    return modal.confirm({
      title: t('workflow.submit'),
      width: 640,
      type: critical ? 'error' : 'warning',
      content: <SubmitWarnings preview={preview} />,
      okButtonProps: { disabled: refused(preview), danger: critical },
    });
  };
  return {
    top: <RecordedWarnings model={model} id={id} />,
    beforeSave: editable && <LiveWarnings warnings={live.warnings} />,
    beforeSubmit,
  };
};

/** In a list's submit dialog: the warnings the submission will record (a hard control refuses it). */
const warningsSubmitCheck: SubmitCheck = ({ model, id, active }) => {
  const preview = useStoredPreview(model, id, active);
  const warned = preview.data?.warnings.length ? preview.data : undefined;
  return {
    pending: preview.isFetching,
    content: warned && <SubmitWarnings preview={warned} />,
    refused: !!warned && refused(warned),
    danger: warned?.warnings.some((w) => w.warnLevel === 'critical'),
  };
};

export const RULE_PANELS: Pick<RendererRegistry, 'forms' | 'details' | 'submitChecks' | 'periodPairs'> = {
  forms: [cumulativeForm, warningsForm],
  details: [RecordedWarnings],
  submitChecks: [warningsSubmitCheck],
  periodPairs: cumulativePairs,
};
