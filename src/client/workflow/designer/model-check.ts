// The whole-model check of the designer: the engine's own deploy-time checks (compileDefinition),
// run in the browser on the drawing as it is, each problem in the user's language naming its
// element — so the designer can say what to fix before the server would refuse the deployment.
import type { Lang } from '../../../engine/model/types.ts';
import { compileDefinition } from '../../../engine/workflow/definition.ts';
import { DefinitionError, renderWorkflowMessage } from '../../../engine/workflow/messages.ts';

export async function modelProblems(xml: string, lang: Lang): Promise<string[]> {
  try {
    await compileDefinition(xml);
    return [];
  } catch (err) {
    if (err instanceof DefinitionError) return err.issues.map((issue) => renderWorkflowMessage(issue, lang));
    throw err;
  }
}
