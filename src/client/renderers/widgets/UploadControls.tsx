// File and image uploads through the resource API. The field keeps the uploaded file's link
// (comma-joined links when x-ui.options.multiple). Type and size are checked before anything is
// sent: an image accepts JPG/PNG up to 500 KB unless x-ui.options say otherwise (types, maxKb).
// An attachment field (x-ref to the attachment records by link) lists the files by their uploaded
// names, and the server checks each link against the caller's own attachments.
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { website } from '../../app/website.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { useReferenceLabels } from '../data.ts';
import { fileName } from '../displays/text.ts';
import { useHttp } from '../http-context.tsx';
import type { ControlProps } from './types.ts';
import { fileProblem, uploadFile } from './upload-request.ts';

interface UploadRule {
  types: readonly string[];
  maxKb: number;
  multiple: boolean;
}

function ruleOf(field: FieldModel, image: boolean): UploadRule {
  const options = (field.ui?.options ?? {}) as { types?: string[]; maxKb?: number; multiple?: boolean };
  return {
    types: options.types ?? (image ? website.avatar.types : []),
    maxKb: options.maxKb ?? (image ? website.avatar.maxKb : 10 * 1024),
    multiple: options.multiple ?? false,
  };
}

function linksOf(value: unknown): string[] {
  return typeof value === 'string' && value ? value.split(',') : [];
}

function asFiles(links: string[], names: Readonly<Record<string, string>>): UploadFile[] {
  return links.map((url, i) => ({ uid: `${i}:${url}`, name: names[url] || fileName(url), status: 'done', url }));
}

function UploadControl({ field, value, onChange, id, readOnly, image }: ControlProps & { image: boolean }) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const { message } = App.useApp();
  const rule = ruleOf(field, image);
  const links = linksOf(value);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [uploaded, setUploaded] = useState<Record<string, string>>({});
  const { data: stored } = useReferenceLabels(field.ref?.entity, field.ref ? links : [], field.ref?.valueField);
  const full = !rule.multiple && links.length > 0;

  const send = async (file: File) => {
    const entry: UploadFile = { uid: `up:${file.name}:${Date.now()}`, name: file.name, status: 'uploading' };
    setPending((p) => [...p, entry]);
    try {
      const { link, originalName } = await uploadFile(http, file);
      setUploaded((names) => ({ ...names, [link]: originalName || file.name }));
      onChange(rule.multiple ? [...links, link].join(',') : link);
    } catch (err) {
      void message.error(t('widget.uploadFailed', { message: (err as Error).message }));
    } finally {
      setPending((p) => p.filter((e) => e.uid !== entry.uid));
    }
  };

  return (
    <Upload
      id={id}
      listType={image ? 'picture-card' : 'text'}
      fileList={[...asFiles(links, { ...stored, ...uploaded }), ...pending]}
      accept={rule.types.length ? rule.types.join(',') : undefined}
      disabled={readOnly}
      multiple={rule.multiple}
      beforeUpload={(file) => {
        const problem = fileProblem(file, rule);
        if (problem) {
          void message.error(t(problem.key, { field: field.label[lang], types: problem.types, size: problem.size }));
          return Upload.LIST_IGNORE;
        }
        void send(file);
        return false;
      }}
      onRemove={(file) => {
        const rest = links.filter((l) => l !== file.url);
        onChange(rest.length ? rest.join(',') : undefined);
      }}
    >
      {readOnly || full ? null : image ? (
        <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>{t('widget.upload')}</div>
        </button>
      ) : (
        <Button icon={<UploadOutlined />}>{t('widget.upload')}</Button>
      )}
    </Upload>
  );
}

export function FileControl(props: ControlProps) {
  return <UploadControl {...props} image={false} />;
}

export function ImageControl(props: ControlProps) {
  return <UploadControl {...props} image />;
}
