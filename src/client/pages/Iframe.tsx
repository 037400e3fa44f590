// An external page inside the layout (/myiframe/:routerPath); ${token} in the address becomes the
// current token, as the platform's menus expect.
import { isUrl } from '../../engine/format/checks.ts';
import { tokenStore } from '../state/storage.ts';
import { ErrorPage } from './ErrorPage.tsx';

export default function Iframe({ params }: { params: Record<string, string> }) {
  const url = decodeURIComponent(params.routerPath ?? '').replace('${token}', encodeURIComponent(tokenStore.access));
  if (!isUrl(url)) return <ErrorPage status={404} />;
  return <iframe title="external" src={url} style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0, background: '#fff' }} />;
}
