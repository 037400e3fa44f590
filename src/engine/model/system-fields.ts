// Columns every record has without its schema declaring them: id, tenant and the audit trail.
// They are readable, filterable and sortable like any property, and only the server writes them.
import { snakeCase } from './names.ts';
import type { EntityScope, FieldKind, FieldModel, Label } from './types.ts';

function systemField(name: string, column: string, kind: FieldKind, sqlType: string, label: Label): FieldModel {
  const type = kind === 'integer' ? 'integer' : 'string';
  const format = kind === 'datetime' ? 'datetime' : undefined;
  return {
    name,
    column,
    label,
    kind,
    sqlType,
    required: false,
    readOnly: true,
    system: true,
    writeOnly: false,
    unique: false,
    index: false,
    schema: { type, ...(format && { format }), readOnly: true, title: label.zh, 'x-i18n': { title: label.en } },
  };
}

export const SYSTEM_LABELS = {
  id: { zh: '主键', en: 'ID' },
  tenantId: { zh: '租户编号', en: 'Tenant ID' },
  createUser: { zh: '创建人', en: 'Created by' },
  createDept: { zh: '创建部门', en: 'Creating department' },
  createTime: { zh: '创建时间', en: 'Created at' },
  updateUser: { zh: '修改人', en: 'Updated by' },
  updateTime: { zh: '修改时间', en: 'Updated at' },
  isDeleted: { zh: '删除标记', en: 'Deleted' },
  sortNo: { zh: '序号', en: 'No.' },
  parent: { zh: '主表编号', en: 'Parent ID' },
} satisfies Record<string, Label>;

/** `tenantRows`: shared rows that a tenant may add to (x-entity.tenantRows) carry their tenant too. */
export function headerSystemFields(scope: EntityScope, softDelete: boolean, tenantRows = false): FieldModel[] {
  const L = SYSTEM_LABELS;
  return [
    systemField('id', 'id', 'id', 'bigint', L.id),
    ...(scope === 'tenant' || tenantRows ? [systemField('tenantId', 'tenant_id', 'string', 'varchar(12)', L.tenantId)] : []),
    systemField('createUser', 'create_user', 'id', 'bigint', L.createUser),
    systemField('createDept', 'create_dept', 'id', 'bigint', L.createDept),
    systemField('createTime', 'create_time', 'datetime', 'timestamp(0)', L.createTime),
    systemField('updateUser', 'update_user', 'id', 'bigint', L.updateUser),
    systemField('updateTime', 'update_time', 'datetime', 'timestamp(0)', L.updateTime),
    ...(softDelete ? [systemField('isDeleted', 'is_deleted', 'integer', 'integer', L.isDeleted)] : []),
  ];
}

export function detailSystemFields(scope: EntityScope, foreignKey: string, orderField: string): FieldModel[] {
  const L = SYSTEM_LABELS;
  return [
    systemField('id', 'id', 'id', 'bigint', L.id),
    ...(scope === 'tenant' ? [systemField('tenantId', 'tenant_id', 'string', 'varchar(12)', L.tenantId)] : []),
    systemField(foreignKey, snakeCase(foreignKey), 'id', 'bigint', L.parent),
    systemField(orderField, snakeCase(orderField), 'integer', 'integer', L.sortNo),
  ];
}
