// 打印 / Print in the detail view of a printable document (printable.ts): the browser's print
// dialog, which prints the document's form alone (PrintDocument, print.css).
import { PrinterOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useT } from '../../i18n/useT.ts';

export function PrintButton({ disabled = false }: { disabled?: boolean }) {
  const t = useT();
  return (
    <Button icon={<PrinterOutlined />} disabled={disabled} onClick={() => window.print()} data-testid="print-button">
      {t('print.button')}
    </Button>
  );
}
