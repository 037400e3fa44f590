// The renderers reach the server only through this context, so that stories and component tests
// can hand them an in-memory API (testing/fake-http.ts) while the app hands them the real client.
import { createContext, useContext } from 'react';
import { http } from '../api/client.ts';
import type { Http } from '../api/http.ts';

export type RendererHttp = Pick<Http, 'get' | 'post' | 'blob'> & Partial<Pick<Http, 'upload'>>;

const HttpContext = createContext<RendererHttp>(http);

export const HttpProvider = HttpContext.Provider;

export function useHttp(): RendererHttp {
  return useContext(HttpContext);
}
