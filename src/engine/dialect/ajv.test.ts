import { describe, expect, it } from 'vitest';
import { formats } from './ajv.ts';

describe('formats', () => {
  it('date: yyyy-MM-dd that exists on the calendar', () => {
    for (const s of ['2024-01-31', '2024-02-29', '2000-02-29', '1999-12-31']) expect(formats.date(s), s).toBe(true);
    for (const s of [
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-1-5',
      '2024/01/05',
      '20240105',
      '2024-01-05T00:00:00',
      ' 2024-01-05',
      '',
    ])
      expect(formats.date(s), s).toBe(false);
  });

  it('datetime: yyyy-MM-dd HH:mm:ss, the platform format (not ISO with T)', () => {
    for (const s of ['2024-02-29 23:59:59', '2024-01-01 00:00:00']) expect(formats.datetime(s), s).toBe(true);
    for (const s of [
      '2024-01-01T00:00:00',
      '2024-01-01 24:00:00',
      '2024-01-01 12:60:00',
      '2024-02-30 10:00:00',
      '2024-01-01 10:00',
      '2024-01-01',
    ])
      expect(formats.datetime(s), s).toBe(false);
  });

  it('month: yyyy-MM', () => {
    for (const s of ['2024-01', '2024-12']) expect(formats.month(s), s).toBe(true);
    for (const s of ['2024-13', '2024-00', '2024-1', '202401', '2024-01-01']) expect(formats.month(s), s).toBe(false);
  });
});
