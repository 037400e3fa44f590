// Write-only fields (a password, a secret key, a connection URL that may hold one) are never
// answered. An edit form that posts the whole record back still needs something in them, so
// `detail` answers a placeholder meaning "set, unchanged", and a write that sends the placeholder
// back leaves the stored secret as it is (as an empty value already does).
import type { EntityModel } from './types.ts';

export const UNCHANGED_SECRET = '******';

/** The record as `detail` answers it: each write-only field holding the placeholder. */
export function withSecretPlaceholders<T extends Record<string, unknown>>(model: EntityModel, record: T): T {
  const out: Record<string, unknown> = { ...record };
  for (const field of model.fields) if (field.writeOnly) out[field.name] = UNCHANGED_SECRET;
  return out as T;
}

/** A written record without the write-only fields sent back unchanged (the placeholder). */
export function withoutUnchangedSecrets<T extends Record<string, unknown>>(model: EntityModel, body: T): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const unchanged = model.fields.filter((f) => f.writeOnly && body[f.name] === UNCHANGED_SECRET);
  if (!unchanged.length) return body;
  const out: Record<string, unknown> = { ...body };
  for (const field of unchanged) delete out[field.name];
  return out as T;
}
