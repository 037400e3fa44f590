// Runs a saved report (GET run, a page at a time) and exports it (GET export: .xlsx with subtotals).
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Space } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { permissionAtom } from '../state/session.ts';
import { saveFile } from '../renderers/list/useListActions.tsx';
import { ReportTable, type ReportRun } from './ReportTable.tsx';

export default function ReportRunner({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const report = rows[0];
  // the export needs the report's export button (the run only reading it)
  const canExport = useAtomValue(permissionAtom)[`${model.menu?.code ?? model.key}_export`] === true;
  const [paging, setPaging] = useState({ current: 1, size: 20 });
  const run = useQuery({
    queryKey: ['report-run', report.id, paging],
    queryFn: () => http.get<ReportRun>(`${model.api}/run`, { id: String(report.id), current: paging.current, size: paging.size }),
  });
  const [exporting, setExporting] = useState(false);
  const exportFile = async () => {
    setExporting(true);
    try {
      const { blob } = await http.blob(`${model.api}/export`, { id: String(report.id) });
      saveFile(blob, `${String(report.name)}.xlsx`);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Modal open width={1100} title={`${t('report.run')}: ${String(report.name)}`} onCancel={() => onClose(false)} footer={null}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {canExport && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportFile()}>
            {t('report.export')}
          </Button>
        )}
        {run.error && <Alert type="error" message={(run.error as Error).message} />}
        {run.data && <ReportTable run={run.data} loading={run.isFetching} onPage={(current, size) => setPaging({ current, size })} />}
      </Space>
    </Modal>
  );
}
