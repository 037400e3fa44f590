// The packs' engine faces, in the order they are installed (engine/packs.ts installPacks): what every
// process installs before it compiles the schema set.
import type { EnginePack } from '../engine/packs.ts';
import { costEnginePack } from './cost/engine/index.ts';

export const ENGINE_PACKS: readonly EnginePack[] = [costEnginePack];
