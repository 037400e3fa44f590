// Browser tests' data as the clerk and the approvers would have produced it: a project, a subcontract
// of 100 m³ of 管廊主体混凝土 at 1,000 and its May settlement, both approved (set in the database: the
// workflow that moves them has its own tests).
import { expect } from 'vitest';
import { project } from '../server/fixtures.ts';
import { testApp, adminApi } from './harness.ts';

export interface SettledSubcontract {
  site: { id: string; name: string };
  contract: { id: string; code: string };
  settlement: { id: string; code: string };
}

export async function settledSubcontract(o: {
  project: Record<string, unknown>;
  team: string;
  contract: string;
  settledQty: number;
}): Promise<SettledSubcontract> {
  const app = testApp();
  const admin = await adminApi();
  const ok = (res: { body: any }) => {
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    return res.body.data;
  };
  const approve = (table: string, id: string) => app.db.query(`UPDATE ${table} SET approval_status = 'approved' WHERE id = $1`, [id]);
  const site = await project(admin, o.project);
  const team = ok(
    await admin.post('/api/construct/subcontractor/save', {
      name: o.team,
      subcontractorTypes: ['subcontract'],
      blacklisted: false,
      status: 'enabled',
    }),
  );
  const contract = ok(
    await admin.post('/api/construct/expenditureContract/save', {
      name: o.contract,
      projectId: site.id,
      subcontractorId: team.id,
      expenditureContractType: 'subcontract',
      pricingMode: 'fixed_unit_price',
      signDate: '2026-04-01',
      startDate: '2026-04-10',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      performanceStatus: 'performing',
      settlementStatus: 'none',
      details: [{ itemCode: '020101', itemName: '管廊主体混凝土', unit: 'm3', quantity: 100, priceInclTax: 1000, taxRate: 9 }],
    }),
  );
  await approve(app.catalog.entities.expenditureContract.table, contract.id);
  // approval makes the contract performing (x-workflow.onApproved), as the workflow would have
  await app.db.query(`UPDATE ${app.catalog.entities.expenditureContract.table} SET performance_status = 'performing' WHERE id = $1`, [
    contract.id,
  ]);
  const settlement = ok(
    await admin.post('/api/construct/subcontractMonthlySettlement/save', {
      projectId: site.id,
      expenditureContractCode: contract.code,
      subcontractorId: team.id,
      period: '2026-05',
      settlementType: 'interim',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      reporterName: '王会计',
      details: [
        {
          itemCode: '020101',
          itemName: '管廊主体混凝土',
          unit: 'm3',
          contractQty: 100,
          thisQty: o.settledQty,
          thisPrice: 1000,
          taxRate: 9,
        },
      ],
    }),
  );
  await approve(app.catalog.entities.subcontractMonthlySettlement.table, settlement.id);
  return { site, contract, settlement };
}
