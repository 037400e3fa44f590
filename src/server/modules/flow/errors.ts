// Workflow refusals as HTTP answers: the engine's messages (engine/workflow/messages.ts) rendered in
// both languages and carried by the platform's error envelope in the caller's language.
import { DefinitionError, WorkflowError, workflowLabel, type WorkflowMessageKey } from '../../../engine/workflow/messages.ts';
import { AppError } from '../../errors.ts';

export function flowError(key: WorkflowMessageKey, params: Record<string, unknown> = {}, status = 400): AppError {
  return new AppError(status, 'workflow', { message: workflowLabel(key, params) });
}

/** The engine's own errors become 400 answers; anything else passes through unchanged. */
export function asHttpError(err: unknown): unknown {
  if (err instanceof WorkflowError) return flowError(err.key, err.params);
  if (err instanceof DefinitionError) return new AppError(400, 'workflow', { message: { zh: err.render('zh'), en: err.render('en') } });
  return err;
}

/** Runs `fn`, turning engine errors into HTTP errors. */
export async function engineCall<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asHttpError(err);
  }
}
