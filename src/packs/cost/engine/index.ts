// The cost rules' engine face (engine/packs.ts): the running totals of x-cumulative, compiled and
// checked here, and the early warnings' texts, which warning records and messages store by key.
import type { EnginePack } from '../../../engine/packs.ts';
import { lintCumulative } from './cumulative/lint.ts';
import { compileCumulative } from './cumulative/model.ts';
import { WARNING_TEXTS } from './warnings/texts.ts';

export const costEnginePack: EnginePack = {
  name: 'cost',
  keywords: { 'x-cumulative': compileCumulative },
  lint: lintCumulative,
  storedTexts: { warning: WARNING_TEXTS },
};
