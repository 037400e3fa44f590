// Errors that reach the caller. Each carries a message key (rendered in the caller's language by the
// HTTP layer), the HTTP status and the envelope code.
import type { MessageKey } from '../engine/i18n/messages.ts';
import type { FieldError } from '../engine/validate/record.ts';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly params: Record<string, unknown> = {},
    readonly code: number = status,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A request whose values are wrong: answered 400 with every problem and where it is. */
export class ValidationFailed extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'ValidationFailed';
  }
}

export const notFound = (entity: unknown) => new AppError(404, 'notFound', { entity });
export const badRequest = (key: MessageKey, params: Record<string, unknown> = {}) => new AppError(400, key, params);
