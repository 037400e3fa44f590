// x-cumulative in the engine: the keyword compiled from the settlement schemas, its refusals with
// file and pointer, and how a settlement takes its previous values from the cumulative answer
// (decimal-exact, this period + previous = cumulative on lines and header).
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../../../tests/support/schema-set.ts';
import { issuesAfter } from '../../../../../tests/schemas/issues-after.ts';
import { applyPrevious, groupOf, lineKey, nextPeriod, previousFields } from './cumulative.ts';
import { cumulativeOf } from './model.ts';

const SETTLEMENT = 'schemas/construct/subcontract-monthly-settlement.schema.json';
const { catalog } = compiledSchemaSet();
const model = catalog.entities.subcontractMonthlySettlement;

describe('x-cumulative in the dialect', () => {
  it('compiles the group, the sums and the contract of a monthly settlement', () => {
    expect(cumulativeOf(model)).toMatchObject({
      keys: ['projectId', 'expenditureContractCode', 'subcontractorId'],
      queryKeys: ['projectId', 'expenditureContractCode', 'subcontractorId'],
      period: 'period',
      source: 'subcontractMonthlySettlement',
      header: { previousCumulativeAmount: 'thisAmountInclTax', previousCumulativePayable: 'thisPayableAmount' },
      lines: { detail: 'details', match: ['itemCode'], quantity: 'thisQty' },
      contract: {
        entity: 'expenditureContract',
        field: 'expenditureContractCode',
        writeBack: {
          cumulativeSettledAmount: { field: 'thisAmountInclTax', aggregate: 'sum' },
          retentionHeldAmount: { field: 'retentionAmount', aggregate: 'sum' },
          cumulativePaidAmount: { field: 'cumulativePaidAmount', aggregate: 'max' },
          lastSettledPeriod: { field: 'period', aggregate: 'max' },
        },
        status: { field: 'settlementStatus', settled: 'partial', unsettled: 'none', keep: ['final'] },
      },
    });
    expect(previousFields(cumulativeOf(model)!)).toEqual({
      header: ['previousCumulativeAmount', 'previousCumulativePayable'],
      rows: ['previousCumulativeQty', 'previousCumulativeAmount'],
    });
  });

  it('asks by project only for the examine and sums the monthly settlements for the filing', () => {
    expect(cumulativeOf(catalog.entities.subcontractMonthlyExamine)).toMatchObject({ queryKeys: ['projectId'], period: 'period' });
    expect(cumulativeOf(catalog.entities.subcontractSettlementFiling)).toMatchObject({
      queryKeys: ['projectId'],
      source: 'subcontractMonthlySettlement',
      header: { interimCumulativeAmount: 'thisAmountInclTax' },
    });
    expect(cumulativeOf(catalog.entities.project)).toBeUndefined();
  });

  it('refuses what does not exist, naming the file and the pointer', () => {
    const issues = issuesAfter(({ files }) => {
      const spec = files[SETTLEMENT]['x-cumulative'];
      spec.keys = ['projectId', 'contractCode'];
      spec.header.previousCumulativeAmount = 'thisAmount';
      spec.lines.match = ['goodsId'];
      spec.contract.field = 'projectId';
      spec.contract.writeBack = { settled: 'thisAmountInclTax' };
      spec.contract.status.field = 'settledState';
      delete files[SETTLEMENT].properties.previousCumulativePayable.readOnly;
    });
    expect(issues.filter((i) => i.file === SETTLEMENT).map((i) => [i.pointer, i.message])).toEqual([
      ['/x-cumulative/keys/1', 'key "contractCode" is not a property'],
      ['/x-cumulative/header/previousCumulativeAmount', '"thisAmount" is not a number property of subcontractMonthlySettlement'],
      ['/x-cumulative/header/previousCumulativePayable', '"previousCumulativePayable" must be readOnly (the server writes it)'],
      ['/x-cumulative/lines/match/0', 'match field "goodsId" is not a row field of both'],
      ['/x-cumulative/contract/field', 'contract field "projectId" is not an x-ref to expenditureContract'],
      ['/x-cumulative/contract/writeBack/settled', '"settled" is not a number property of expenditureContract'],
      ['/x-cumulative/contract/status/field', '"settledState" is not a property of expenditureContract'],
      ['/x-cumulative/contract/lines/match/itemCode', '"itemCode" is not one of lines.match'],
    ]);
  });

  it('compiles the final settlements and refuses a final that writes what the contract cannot hold', () => {
    const final = {
      writeBack: { cumulativeSettledAmount: 'finalAmount', cumulativePaidAmount: 'cumulativePaidAmount' },
      set: { settlementStatus: 'final', performanceStatus: 'completed' },
      reopen: { performanceStatus: 'performing' },
    };
    expect(cumulativeOf(catalog.entities.subcontractSettlementFiling)?.contract?.final).toEqual(final);
    expect(cumulativeOf(catalog.entities.laborSettlementFinalization)).toMatchObject({
      source: 'laborMonthlySettlement',
      header: { interimCumulativeAmount: 'thisAmountInclTax' },
      contract: { final },
    });
    expect(cumulativeOf(model)?.contract?.final).toBeUndefined();
    const FILING = 'schemas/construct/subcontract-settlement-filing.schema.json';
    const issues = issuesAfter(({ files }) => {
      const spec = files[FILING]['x-cumulative'].contract.final;
      spec.writeBack = { remark: 'finalAmount', cumulativeSettledAmount: 'filingNo' };
      spec.set.settlementStatus = 'closed';
      spec.reopen = { performanceStatuz: 'performing' };
    });
    expect(issues.map((i) => [i.file, i.pointer, i.message])).toEqual([
      [FILING, '/x-cumulative/contract/final/writeBack/remark', '"remark" is not a number property of expenditureContract'],
      [FILING, '/x-cumulative/contract/final/writeBack/cumulativeSettledAmount', '"filingNo" is not a number property of this document'],
      [FILING, '/x-cumulative/contract/final/set/settlementStatus', '"closed" is not a value of expenditureContract.settlementStatus'],
      [FILING, '/x-cumulative/contract/final/reopen/performanceStatuz', '"performanceStatuz" is not a property of expenditureContract'],
    ]);
  });

  it('writes a contract field back as a sum (a field name or { sum }) or as the largest value ({ max })', () => {
    const issues = issuesAfter(({ files }) => {
      const spec = files[SETTLEMENT]['x-cumulative'].contract;
      spec.writeBack.cumulativeSettledAmount = { sum: 'thisAmountInclTax' };
      spec.writeBack.lastSettledPeriod = { max: 'startDate' }; // a date into a month
      spec.writeBack.cumulativePaidAmount = { max: 'reporterName' }; // text has no order worth taking
      spec.writeBack.retentionHeldAmount = { max: 'retentionAmount' }; // the other writers sum it
      spec.writeBack.remark = { max: 'period' }; // a month into text
      spec.writeBack.settledRatio = { max: 'period' }; // a month into a number
      spec.writeBack.changeAmount = 'period'; // a sum of months
    });
    expect(issues.filter((i) => i.file === SETTLEMENT).map((i) => [i.pointer, i.message])).toEqual([
      [
        '/x-cumulative/contract/writeBack/retentionHeldAmount',
        'materialMonthlySettlement writes "retentionHeldAmount" as a sum, this one as a max',
      ],
      [
        '/x-cumulative/contract/writeBack/cumulativePaidAmount',
        '"reporterName" is not a number, month or date property of subcontractMonthlySettlement',
      ],
      ['/x-cumulative/contract/writeBack/lastSettledPeriod', '"lastSettledPeriod" of expenditureContract cannot hold the date "startDate"'],
      ['/x-cumulative/contract/writeBack/remark', '"remark" of expenditureContract cannot hold the month "period"'],
      ['/x-cumulative/contract/writeBack/settledRatio', '"settledRatio" of expenditureContract cannot hold the month "period"'],
      ['/x-cumulative/contract/writeBack/changeAmount', '"period" is not a number property of subcontractMonthlySettlement'],
    ]);
    const bad = issuesAfter(({ files }) => {
      files[SETTLEMENT]['x-cumulative'].contract.writeBack.lastSettledPeriod = { latest: 'period' };
    });
    expect(bad.map((i) => `${i.file}#${i.pointer}`)).toContain(`${SETTLEMENT}#/x-cumulative/contract/writeBack/lastSettledPeriod`);
  });

  it('refuses unknown sub-keywords and a document without a workflow', () => {
    const issues = issuesAfter(({ files }) => {
      files[SETTLEMENT]['x-cumulative'].sums = ['x'];
    });
    expect(issues.map((i) => `${i.file}#${i.pointer}`)).toContain(`${SETTLEMENT}#/x-cumulative`);
    const noFlow = issuesAfter(({ files }) => {
      delete files[SETTLEMENT]['x-workflow'];
    });
    expect(noFlow.map((i) => i.message)).toContain('x-cumulative needs x-workflow (only approved documents count)');
  });
});

describe('previous values of a settlement', () => {
  const draft = {
    projectId: '1',
    expenditureContractCode: 'ZCHT-202604-0001',
    subcontractorId: '2',
    period: '2026-07',
    taxRate: 9,
    paymentRatio: 80,
    retentionRate: 3,
    previousCumulativeAmount: 1, // a client's value: replaced
    details: [
      { itemCode: '010101', thisQty: 100, thisPrice: 30, taxRate: 9, contractQty: 1000, previousCumulativeQty: 999 },
      { itemCode: '010502', thisQty: 20.5, thisPrice: 600.15, taxRate: 9, contractQty: 500 },
      { itemCode: '020301', thisQty: -2, thisPrice: 45, taxRate: 9, contractQty: 0 }, // an adjustment line settled for the first time
    ],
  };
  const answer = {
    header: { previousCumulativeAmount: 105000, previousCumulativePayable: '80850.01' },
    lines: [
      { key: { itemCode: '010101' }, previous: { previousCumulativeQty: 500, previousCumulativeAmount: 15000 } },
      { key: { itemCode: '010502' }, previous: { previousCumulativeQty: '150.25', previousCumulativeAmount: '90150.03' } },
    ],
  };

  it('takes them by line and in total, and derives the cumulatives exactly', () => {
    const filled = applyPrevious(model, draft, answer);
    // 20.5 × 600.15 = 12,303.075 → 12,303.08; lines 3,000 + 12,303.08 − 90 = 15,213.08
    expect(filled).toMatchObject({
      previousCumulativeAmount: 105000,
      thisAmountInclTax: 15213.08,
      cumulativeAmount: 120213.08,
      previousCumulativePayable: 80850.01,
    });
    // payable r2(15,213.08 × 0.8) = 12,170.46, retention r2(15,213.08 × 0.03) = 456.39 → 11,714.07
    expect(filled.thisPayableAmount).toBe(11714.07);
    expect(filled.cumulativePayable).toBe(92564.08);
    const rows = filled.details as Record<string, unknown>[];
    expect(rows[0]).toMatchObject({
      previousCumulativeQty: 500,
      cumulativeQty: 600,
      previousCumulativeAmount: 15000,
      cumulativeAmount: 18000,
      completionRate: 60,
    });
    expect(rows[1]).toMatchObject({
      previousCumulativeQty: 150.25,
      cumulativeQty: 170.75,
      amountInclTax: 12303.08,
      cumulativeAmount: 102453.11,
    });
    expect(rows[2]).toMatchObject({ previousCumulativeQty: 0, previousCumulativeAmount: 0, amountInclTax: -90, cumulativeAmount: -90 });
  });

  it('starts from zero when nothing was approved before', () => {
    const filled = applyPrevious(model, draft, { header: {}, lines: [] });
    expect(filled).toMatchObject({ previousCumulativeAmount: 0, previousCumulativePayable: 0, cumulativeAmount: 15213.08 });
    expect((filled.details as Record<string, unknown>[]).map((r) => r.previousCumulativeQty)).toEqual([0, 0, 0]);
  });

  it('knows a group only when every key is there, and the month after a period', () => {
    expect(groupOf(cumulativeOf(model)!, draft)).toEqual({
      projectId: '1',
      expenditureContractCode: 'ZCHT-202604-0001',
      subcontractorId: '2',
    });
    expect(groupOf(cumulativeOf(model)!, { ...draft, subcontractorId: '' })).toBeUndefined();
    expect(lineKey({ itemCode: 10101 }, ['itemCode'])).toBe(lineKey({ itemCode: '10101' }, ['itemCode']));
    expect(nextPeriod('2026-07')).toBe('2026-08');
    expect(nextPeriod('2026-12')).toBe('2027-01');
  });
});
