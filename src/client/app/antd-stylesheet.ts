// antd's stylesheet, read instead of the styles antd writes in the browser. antd 6 writes each
// component's styles as it first renders (CSS-in-JS): in a profile of a reload of home that was
// 150–200 ms of the main thread. With `zeroRuntime` it writes only the theme's CSS variables (the
// header's five themes keep working) and takes the components' rules from the stylesheet it ships.
// That goes first in <head>, where antd's own styles went, so the app's stylesheets and the theme's
// variables still win over it; the signed-in pages render once it has loaded. A production build
// only: the dev server and the tests keep antd's runtime styles.
import href from 'antd/dist/antd.css?url';

/** True in a production build: antd renders with `zeroRuntime` and this stylesheet. */
export const staticAntdStyles = import.meta.env.PROD;

let loading: Promise<void> | undefined;
let loaded = false;

/** Whether it has loaded (or failed to): the pages need not wait for it. */
export const antdStylesheetLoaded = () => loaded;

/** The stylesheet, loading or loaded (one promise, for React's `use`); asked for early by a page load. */
export function antdStylesheet(): Promise<void> {
  loading ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    // one that fails to load leaves the pages unstyled rather than never shown
    link.onload = link.onerror = () => {
      loaded = true;
      resolve();
    };
    document.head.prepend(link);
  });
  return loading;
}
