// The save step every admin dialog shares: call the server, say 操作成功 (or what `success` makes of
// the answer), close and refresh the list. A failure keeps the dialog open with what was chosen (the
// HTTP client shows the message).
import { App } from 'antd';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { useHttp, type RendererHttp } from '../renderers/http-context.tsx';

export function useSubmit(onDone: () => void) {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const submit = async <T>(call: (http: RendererHttp) => Promise<T>, success: (answer: T) => string = () => t('common.success')) => {
    setBusy(true);
    try {
      const answer = await call(http);
      void message.success(success(answer));
      onDone();
    } catch {
      // shown by the HTTP client; nothing chosen is lost
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy };
}
