// Holds the browser's live subscription while the shell is open: every event refreshes the
// message queries (bell count, drawer), and a new message is also handed to `onMessage` (the
// popup). The subscription itself reconnects and only logs its failures (src/client/api/live.ts).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { renderText } from '../../../engine/i18n/stored-text.ts';
import { subscribeLive, type LiveHandlers, type LiveSubscription } from '../../api/live.ts';
import { appStore, langAtom } from '../../state/session.ts';
import { tokenStore } from '../../state/storage.ts';
import { MESSAGES_KEY, type MessageRecord } from './api.ts';

/** Opens the subscription; the app's default uses the session's token. */
export type Subscribe = (handlers: LiveHandlers) => LiveSubscription;

export const sessionSubscribe: Subscribe = (handlers) =>
  subscribeLive({ ...handlers, token: () => tokenStore.access, lang: () => appStore.get(langAtom) });

export function useLiveMessages(
  subscribe: Subscribe,
  onMessage: (message: Pick<MessageRecord, 'id' | 'title' | 'type' | 'createUserName' | 'createTime'>) => void,
) {
  const queryClient = useQueryClient();
  const latest = useRef(onMessage);
  latest.current = onMessage;
  useEffect(() => {
    const subscription = subscribe({
      onEvent(name, data) {
        if (!['ready', 'message', 'changed', 'refresh'].includes(name)) return;
        void queryClient.invalidateQueries({ queryKey: MESSAGES_KEY });
        // a system message's title comes as its stored text (key and parameters): rendered in the UI's language
        if (name === 'message' && data && typeof data === 'object') {
          const message = data as MessageRecord;
          latest.current({ ...message, title: String(renderText(message.title, appStore.get(langAtom))) });
        }
      },
    });
    return () => subscription.close();
  }, [subscribe, queryClient]);
}
