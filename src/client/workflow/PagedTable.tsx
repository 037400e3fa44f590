// The paged antd table the flow pages share (my work, 部署管理, 流程跟踪, 模型设计): one request per
// page through react-query, the list's error above the table, page and page size kept here and
// back to page 1 whenever the filters change.
import { useQuery } from '@tanstack/react-query';
import { Alert, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { FlowPage, FlowRow } from './api.ts';

export interface Paging {
  current: number;
  size: number;
}

export interface PagedTableProps {
  /** The cache key of the list, without paging (its filters included). */
  queryKey: readonly unknown[];
  load: (paging: Paging) => Promise<FlowPage>;
  columns: TableColumnsType<FlowRow>;
  rowKey: (row: FlowRow) => string;
  /** data-testid of the wrapper, which carries aria-busy while the list loads. */
  testId: string;
  /** The error line shown when the list cannot be loaded. */
  errorText?: (message: string) => string;
  enabled?: boolean;
}

export function PagedTable({ queryKey, load, columns, rowKey, testId, errorText = (m) => m, enabled = true }: PagedTableProps) {
  const filters = JSON.stringify(queryKey);
  const [paging, setPaging] = useState({ current: 1, size: 10, filters });
  // new filters: start again at the first page (set while rendering, so no request for the old page leaves)
  if (paging.filters !== filters) setPaging({ ...paging, current: 1, filters });
  const list = useQuery({
    queryKey: [...queryKey, paging.current, paging.size],
    queryFn: () => load({ current: paging.current, size: paging.size }),
    staleTime: 0,
    enabled,
  });
  return (
    <div data-testid={testId} aria-busy={list.isFetching}>
      {list.isError && <Alert type="error" showIcon title={errorText((list.error as Error).message)} style={{ marginBottom: 12 }} />}
      <Table<FlowRow>
        rowKey={rowKey}
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isLoading}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (current, size) => setPaging({ current, size, filters }),
        }}
      />
    </div>
  );
}
