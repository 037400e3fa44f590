// Data of the dictionary pages: the dictionaries (parent-list, searchable, paged) and the entries of
// one (child-list), read through the renderers' HTTP context; removing asks 确定将选择数据删除?, says
// 删除成功 and refreshes every list of the model (query keys start with ['list', model.key]).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { invalidateEntity } from '../../renderers/data.ts';
import type { Row } from '../../renderers/extensions.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { langAtom, permissionAtom } from '../../state/session.ts';

export interface Page {
  records: Row[];
  total: number;
}

export function usePaged(model: EntityModel, call: 'parent-list' | 'child-list', filters: Record<string, string>, enabled = true) {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const [page, setPage] = useState({ current: 1, size: model.list.pageSize });
  const query = useQuery({
    queryKey: ['list', model.key, call, filters, page, lang],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => http.get<Page>(`${model.api}/${call}`, { ...filters, current: page.current, size: page.size, ascs: 'sort' }),
  });
  return { query, page, setPage: (current: number, size: number) => setPage({ current, size }) };
}

/** May the user add / edit / delete records of the model (its menu's buttons)? */
export function useCan(model: EntityModel) {
  const permissions = useAtomValue(permissionAtom);
  const code = model.menu?.code ?? model.key;
  return (action: 'add' | 'edit' | 'delete') => permissions[`${code}_${action}`] === true;
}

export function useRemove(model: EntityModel, onRemoved: (ids: string[]) => void) {
  const http = useHttp();
  const t = useT();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  return (ids: string[]) =>
    modal.confirm({
      content: t('common.deleteConfirm'),
      onOk: async () => {
        await http.post(`${model.api}/remove`, undefined, { searchParams: { ids: ids.join(',') } });
        void message.success(t('common.deleted'));
        onRemoved(ids);
        await invalidateEntity(queryClient, http, model.key);
      },
    });
}
