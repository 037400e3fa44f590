// The material ledger's tables. Not documents (nobody edits them): a journal of stock movements
// written only by the approval of the documents that move stock, one row per document line, keyed
// by tenant × project × warehouse × goods × month; balances and monthly reports are sums over it.
// Keeping the source document on each row makes a reversal exact: its rows are deleted.
// Quantities out (consumption, transfers out, losses) are negative, so every balance is a SUM.
export const LEDGER_DDL = `
CREATE TABLE IF NOT EXISTS material_ledger (
  id bigserial PRIMARY KEY, tenant_id varchar(12) NOT NULL, project_id bigint NOT NULL, warehouse_id bigint NOT NULL,
  goods_id bigint NOT NULL, month char(7) NOT NULL, entry_date date NOT NULL, movement varchar(16) NOT NULL,
  source varchar(32), qty numeric(24,4) NOT NULL, amount numeric(24,2) NOT NULL,
  doc_entity varchar(64) NOT NULL, doc_id bigint NOT NULL, doc_code varchar(64), post_time timestamp(0) NOT NULL DEFAULT now());
CREATE INDEX IF NOT EXISTS material_ledger_key_idx ON material_ledger (tenant_id, project_id, warehouse_id, goods_id, month);
CREATE INDEX IF NOT EXISTS material_ledger_doc_idx ON material_ledger (tenant_id, doc_entity, doc_id);

CREATE TABLE IF NOT EXISTS material_ledger_close (
  tenant_id varchar(12) NOT NULL, project_id bigint NOT NULL, warehouse_id bigint NOT NULL, month char(7) NOT NULL,
  situation_id bigint NOT NULL, situation_code varchar(64), PRIMARY KEY (tenant_id, project_id, warehouse_id, month));
`;
