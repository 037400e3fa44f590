// The body of a grant dialog while its trees load or after they failed, else its content.
import { Alert, Spin } from 'antd';
import type { ReactNode } from 'react';

export function GrantBody({ loading, error, children }: { loading: boolean; error: Error | null; children: ReactNode }) {
  if (error) return <Alert type="error" showIcon title={error.message} />;
  return (
    <Spin spinning={loading}>
      <div style={{ minHeight: 120 }}>{children}</div>
    </Spin>
  );
}
