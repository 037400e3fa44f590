// Sends one file to the resource API (POST multipart to oss/endpoint/put-file, answer data.link)
// through the renderers' HTTP context: the app's client, or the in-memory API of stories and tests.
import type { RendererHttp } from '../http-context.tsx';

export const PUT_FILE = '/api/blade-resource/oss/endpoint/put-file';

export interface Uploaded {
  link: string;
  name?: string;
  /** The name the file was uploaded under. */
  originalName?: string;
}

export async function uploadFile(http: RendererHttp, file: File): Promise<Uploaded> {
  if (!http.upload) throw new Error('this HTTP context cannot upload files');
  const body = new FormData();
  body.append('file', file, file.name);
  return http.upload<Uploaded>(PUT_FILE, body);
}

/** What is wrong with a file before it is sent, as a message key and its values; null when it may go. */
export function fileProblem(
  file: { name: string; type: string; size: number },
  rule: { types: readonly string[]; maxKb: number },
): { key: 'widget.uploadType' | 'widget.uploadSize'; types: string; size: string } | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const typeOk = rule.types.length === 0 || rule.types.some((t) => t === file.type || t.replace(/^\./, '') === extension);
  const names = [
    ...new Set(
      rule.types.map((t) =>
        t
          .replace(/^image\//, '')
          .replace(/^\./, '')
          .replace('jpeg', 'jpg')
          .toUpperCase(),
      ),
    ),
  ].join('/');
  const size = rule.maxKb >= 1024 ? `${rule.maxKb / 1024} MB` : `${rule.maxKb}KB`;
  if (!typeOk) return { key: 'widget.uploadType', types: names, size };
  if (file.size > rule.maxKb * 1024) return { key: 'widget.uploadSize', types: names, size };
  return null;
}
