// The cost rules' engine face (engine/packs.ts): the running totals of x-cumulative, compiled and
// checked here, the fields its rules read by role, checked here, and the early warnings' texts,
// which warning records and messages store by key.
import type { EnginePack } from '../../../engine/packs.ts';
import { lintCumulative } from './cumulative/lint.ts';
import { compileCumulative } from './cumulative/model.ts';
import { lintFieldRoleNeeds, lintLineRoleNeeds } from './field-roles.ts';
import { WARNING_TEXTS } from './warnings/texts.ts';

export const costEnginePack: EnginePack = {
  name: 'cost',
  keywords: { 'x-cumulative': compileCumulative },
  lint: (model, entities, report, dictionaries) => {
    lintCumulative(model, entities, report, dictionaries);
    lintFieldRoleNeeds(model, entities, report);
    lintLineRoleNeeds(model, entities, report);
  },
  storedTexts: { warning: WARNING_TEXTS },
};
