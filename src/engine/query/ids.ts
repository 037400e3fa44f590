// Record ids are PostgreSQL bigints: at most 19 digits and not above 2^63 − 1. A longer or larger
// "id" is bad input (400), never a database error.
const DIGITS = /^\d{1,19}$/;
const MAX_BIGINT = 9223372036854775807n;

/** Whether the text is an id a bigint column can hold. */
export function isRecordId(text: string): boolean {
  return DIGITS.test(text) && BigInt(text) <= MAX_BIGINT;
}
