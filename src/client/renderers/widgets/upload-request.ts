// Sends one file to the resource API (POST multipart to oss/endpoint/put-file, answer data.link).
// The renderers' HTTP context may carry an `upload` call (the in-memory API of stories and tests
// does); otherwise the file goes through fetch with the same headers the app's client sends.
import { ApiError } from '../../api/http.ts';
import { website } from '../../app/website.ts';
import { appStore, langAtom } from '../../state/session.ts';
import { tokenStore } from '../../state/storage.ts';
import type { RendererHttp } from '../http-context.tsx';

export const PUT_FILE = '/api/blade-resource/oss/endpoint/put-file';

export interface Uploaded {
  link: string;
  name?: string;
}

export type UploadingHttp = RendererHttp & { upload?: (url: string, body: FormData) => Promise<Uploaded> };

async function viaFetch(body: FormData): Promise<Uploaded> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
    'Accept-Language': appStore.get(langAtom) === 'en' ? 'en' : 'zh-CN',
  };
  if (tokenStore.access) headers[website.tokenHeader] = `bearer ${tokenStore.access}`;
  const response = await fetch(PUT_FILE, { method: 'POST', body, headers, credentials: 'include' });
  const answer = await response.json().catch(() => null);
  if (!answer || answer.code !== 200) throw new ApiError(answer?.code ?? response.status, answer?.msg ?? response.statusText, answer);
  return answer.data as Uploaded;
}

export async function uploadFile(http: UploadingHttp, file: File): Promise<Uploaded> {
  const body = new FormData();
  body.append('file', file, file.name);
  return http.upload ? http.upload(PUT_FILE, body) : viaFetch(body);
}

/** What is wrong with a file before it is sent, as a message key and its values; null when it may go. */
export function fileProblem(file: { name: string; type: string; size: number }, rule: { types: readonly string[]; maxKb: number }):
  { key: 'widget.uploadType' | 'widget.uploadSize'; types: string; size: string } | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const typeOk = rule.types.length === 0 || rule.types.some((t) => t === file.type || t.replace(/^\./, '') === extension);
  const names = [...new Set(rule.types.map((t) => t.replace(/^image\//, '').replace(/^\./, '').replace('jpeg', 'jpg').toUpperCase()))].join('/');
  const size = rule.maxKb >= 1024 ? `${rule.maxKb / 1024} MB` : `${rule.maxKb}KB`;
  if (!typeOk) return { key: 'widget.uploadType', types: names, size };
  if (file.size > rule.maxKb * 1024) return { key: 'widget.uploadSize', types: names, size };
  return null;
}
