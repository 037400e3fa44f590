// Routes and the guard applied on every navigation. Static pages are listed here; every
// other page comes from the user's server menu (each menu path, and its /index child, opens the
// list of the document type the menu names). A page the user is not granted goes to /403, a path
// that is no page at all to /404 (pages/NoPage.tsx).
import { useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect, useMemo, type ComponentType } from 'react';
import { Redirect, useLocation } from 'wouter';
import { menuName, translate } from '../i18n/useT.ts';
import {
  appStore,
  endSession,
  langAtom,
  lockPasswordAtom,
  menusAtom,
  tabsAtom,
  tokenAtom,
  userInfoAtom,
  visitsAtom,
  type MenuNode,
  type Tab,
} from '../state/session.ts';
import { pageMenus, sameSpelling } from '../state/menus.ts';
import { guard, type RouteMeta } from './guard.ts';
import LoginPage from '../pages/Login.tsx';
import { directHttp } from '../api/client.ts';
import { SCHEMAS_URL } from '../renderers/schemas-url.ts';
import { fetchSchemaSet, loadMenus, loadPermissions, menusAnsweredAtom, requestSessionOnce, requestSchemaSet } from './bootstrap.ts';
import { earlyHttp, type Prefetch } from './prefetch.ts';
import { antdStylesheet, staticAntdStyles } from './antd-stylesheet.ts';
import { lazyPreloaded } from './lazy.ts';
import { website } from './website.ts';
import { COST_PAGES } from '../../packs/cost/client/routes.ts';

type Page = ComponentType<{ params: Record<string, string> }> & {
  /** Starts loading the page's chunk (lazy pages). */
  preload?: () => Promise<unknown>;
  /** The page's prefetch, from its chunk (the module's `prefetch`, when it has one). */
  prefetch?: () => Promise<Prefetch | undefined>;
};

interface StaticRoute {
  path: string;
  meta: RouteMeta;
  page: Page;
  /** Rendered inside the layout (header, menu, tabs). */
  inLayout: boolean;
}

/** A page's chunk: its component, and the requests a page load makes for it before it renders (app/prefetch.ts). */
type PageModule = { default: ComponentType<any>; prefetch?: Prefetch };

const page = (loader: () => Promise<PageModule>): Page => {
  const component = lazyPreloaded(loader);
  return Object.assign(component, { prefetch: () => component.preload().then((m) => m.prefetch) });
};

// the login page is part of the first bundle: most visitors start there, and a lazy chunk would
// add a round trip before the form shows
const Login: Page = LoginPage;
const Lock = page(() => import('../pages/Lock.tsx'));
const ChangePassword = page(() => import('../pages/ChangePassword.tsx'));
const ErrorPage403 = page(() => import('../pages/ErrorPage.tsx').then((m) => ({ default: () => <m.ErrorPage status={403} /> })));
const ErrorPage404 = page(() => import('../pages/ErrorPage.tsx').then((m) => ({ default: () => <m.ErrorPage status={404} /> })));
const ErrorPage500 = page(() => import('../pages/ErrorPage.tsx').then((m) => ({ default: () => <m.ErrorPage status={500} /> })));
const Layout = lazyPreloaded(() => import('../shell/Layout.tsx'));
const ShellProviders = lazyPreloaded(() => import('./ShellProviders.tsx'));
const CatalogGate = lazyPreloaded(() => import('./CatalogGate.tsx'));
const NoPage = lazyPreloaded(() => import('../pages/NoPage.tsx'));
const Home = page(() => import('../pages/Home.tsx'));
const Dashboard = page(() => import('../pages/Dashboard.tsx'));
const Profile = page(() => import('../pages/Profile.tsx'));
const TestPage = page(() => import('../pages/TestPage.tsx'));
const Iframe = page(() => import('../pages/Iframe.tsx'));
const DictHorizontal = page(() => import('../pages/DictPages.tsx').then((m) => ({ default: m.DictHorizontal })));
const DictVertical = page(() => import('../pages/DictPages.tsx').then((m) => ({ default: m.DictVertical })));
const EntityPage = page(() => import('../renderers/EntityPage.tsx'));
const workList = (name: 'StartList' | 'ClaimList' | 'TodoList' | 'SendList' | 'DoneList' | 'DefinitionList' | 'FollowList') =>
  page(() => import('../workflow/WorkList.tsx').then((m) => ({ default: m[name], prefetch: m.prefetch[name] })));
const processPage = (name: 'StartFormPage' | 'HandlePage' | 'DetailPage') =>
  page(() => import('../workflow/ProcessPages.tsx').then((m) => ({ default: m[name], prefetch: m.prefetch[name] })));

export const STATIC_ROUTES: StaticRoute[] = [
  { path: '/login', meta: { isAuth: false, isTab: false, title: 'title.login' }, page: Login, inLayout: false },
  { path: '/lock', meta: { isTab: false, title: 'title.lock' }, page: Lock, inLayout: false },
  { path: '/password', meta: { isTab: false, title: 'title.password' }, page: ChangePassword, inLayout: false },
  { path: '/403', meta: { isAuth: false, isTab: false, title: 'title.403' }, page: ErrorPage403, inLayout: false },
  { path: '/404', meta: { isAuth: false, isTab: false, title: 'title.404' }, page: ErrorPage404, inLayout: false },
  { path: '/500', meta: { isAuth: false, isTab: false, title: 'title.500' }, page: ErrorPage500, inLayout: false },
  { path: '/wel/index', meta: { title: 'title.home' }, page: Home, inLayout: true },
  { path: '/wel/dashboard', meta: { title: 'title.dashboard' }, page: Dashboard, inLayout: true },
  // the packs' pages
  ...COST_PAGES.map(({ path, title, load }) => ({ path, meta: { title }, page: page(load), inLayout: true })),
  { path: '/info/index', meta: { title: 'title.info' }, page: Profile, inLayout: true },
  { path: '/test/index', meta: { title: 'title.test' }, page: TestPage, inLayout: true },
  { path: '/dict-horizontal/index', meta: { title: 'title.dictHorizontal' }, page: DictHorizontal, inLayout: true },
  { path: '/dict-vertical/index', meta: { title: 'title.dictVertical' }, page: DictVertical, inLayout: true },
  { path: '/myiframe/:routerPath', meta: { title: 'title.iframe' }, page: Iframe, inLayout: true },
  // my work and the approval pages of every document type (docs/workflows.md)
  { path: '/work/start', meta: { title: 'workflow.title.start' }, page: workList('StartList'), inLayout: true },
  { path: '/work/claim', meta: { title: 'workflow.title.claim' }, page: workList('ClaimList'), inLayout: true },
  { path: '/work/todo', meta: { title: 'workflow.title.todo' }, page: workList('TodoList'), inLayout: true },
  { path: '/work/send', meta: { title: 'workflow.title.send' }, page: workList('SendList'), inLayout: true },
  { path: '/work/done', meta: { title: 'workflow.title.done' }, page: workList('DoneList'), inLayout: true },
  {
    path: '/flow/model',
    meta: { title: 'designer.title' },
    page: page(() => import('../workflow/designer/ModelPage.tsx')),
    inLayout: true,
  },
  { path: '/flow/manager', meta: { title: 'workflow.title.manager' }, page: workList('DefinitionList'), inLayout: true },
  { path: '/flow/follow', meta: { title: 'workflow.title.follow' }, page: workList('FollowList'), inLayout: true },
  {
    path: '/work/process/:prefix/form/:processDefinitionId',
    meta: { title: 'workflow.title.form' },
    page: processPage('StartFormPage'),
    inLayout: true,
  },
  {
    path: '/work/process/:prefix/handle/:taskId/:processInstanceId/:businessId',
    meta: { title: 'workflow.title.handle' },
    page: processPage('HandlePage'),
    inLayout: true,
  },
  {
    path: '/work/process/:prefix/detail/:processInstanceId/:businessId',
    meta: { title: 'workflow.title.detail' },
    page: processPage('DetailPage'),
    inLayout: true,
  },
];

interface Resolved {
  route?: StaticRoute;
  menu?: MenuNode;
  params: Record<string, string>;
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

export function resolve(path: string, menus: MenuNode[]): Resolved {
  for (const route of STATIC_ROUTES) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  const clean = path.replace(/\/index$/, '');
  const pages = pageMenus(menus);
  const menu = pages.find((m) => m.path === clean) ?? pages.find((m) => sameSpelling(m.path, clean));
  return { menu, params: {} };
}

function tabFor(path: string, r: Resolved): Tab {
  if (r.menu) return { label: r.menu.name, value: path, meta: { zh: r.menu.name, en: r.menu.nameEn ?? r.menu.name }, close: true };
  const key = r.route?.meta.title;
  return { label: key ?? path, value: path, meta: { titleKey: key }, close: path !== website.firstPage.path };
}

let catalogLoaded: Promise<void> | undefined;

/**
 * Starts at once what a page inside the layout waits for: nested lazy components load one after
 * the other (providers, catalog gate, layout, page), each chunk requested only once the one around
 * it has rendered, and the schema set was asked for only after that. Loading them side by side
 * takes a few hundred milliseconds off a page load. A module is loaded once, whoever asks first.
 */
function preloadShell(page: Page): Promise<unknown>[] {
  const code: Promise<unknown>[] = [page.preload?.() ?? Promise.resolve()];
  if (catalogLoaded === undefined) {
    code.push(ShellProviders.preload(), CatalogGate.preload(), Layout.preload());
    const catalogCode = import('../renderers/catalog.ts');
    // the packs' engine faces, installed before a prefetch compiles the set (app/registry.ts, in the shell's code)
    const packsInstalled = import('./registry.ts').then(({ installAppPacks }) => installAppPacks());
    code.push(catalogCode, packsInstalled);
    catalogLoaded = Promise.all([catalogCode, packsInstalled]).then(([{ catalogReady, loadCatalog }]) =>
      catalogReady() ? undefined : loadCatalog(fetchSchemaSet),
    );
    catalogLoaded.catch(() => undefined); // the catalog gate asks again, and shows what went wrong
  }
  // a chunk that fails to load is asked for again by its lazy component, which shows the failure
  for (const load of code) load.catch(() => undefined);
  return code;
}

/**
 * A page load (the entry script, before the first render; settles once the shell's and the page's
 * code is in, whatever the requests are doing): a signed-in page inside the layout asks
 * side by side for the schema set, the menus and buttons (the stored ones show meanwhile: grants
 * changed since sign-in show after a reload), the shell's and the page's code, and, once its code and
 * the catalog are in, the page's first data. Nothing waits for the first render, nor for what it
 * does not need: the page's data does not wait for the shell to render, the menus not for the catalog.
 */
export function startPageLoad(path: string, search: string, hash = ''): Promise<void> {
  const user = appStore.get(userInfoAtom);
  // a user who must change the password first opens nothing else (the guard sends them there)
  const signedIn = user !== null && !user.must_change_password && appStore.get(tokenAtom) !== '' && appStore.get(lockPasswordAtom) === null;
  const resolved = resolve(path === '/' || path === '/wel' ? website.firstPage.path : path, appStore.get(menusAtom));
  if (!signedIn) return Promise.resolve();
  // an address none of the stored menus matches is judged once the menus have answered (AppRouter)
  if (!resolved.route && !resolved.menu) requestSessionOnce();
  if (!(resolved.menu || resolved.route?.inLayout)) return Promise.resolve();
  requestSchemaSet(SCHEMAS_URL);
  Promise.all([loadMenus(), loadPermissions()]).catch(() => undefined); // a failure keeps what is stored; the client shows it
  const page = resolved.route?.page ?? EntityPage;
  const code = preloadShell(page);
  if (staticAntdStyles) void antdStylesheet(); // beside the shell's code, which waits for it
  if (page.prefetch) {
    const params = resolved.menu ? { menuCode: resolved.menu.code, path: resolved.menu.path } : resolved.params;
    Promise.all([page.prefetch(), catalogLoaded])
      .then(([prefetch]) => prefetch?.({ params, search, hash, http: earlyHttp(directHttp) }))
      .catch(() => undefined); // the page asks for itself, and shows what went wrong
  }
  return Promise.allSettled(code).then(() => undefined);
}

/** How long the entry waits for the shell before rendering anyway (its lazy parts then suspend). */
const FIRST_RENDER_WAIT_MS = 3000;

/**
 * What the entry waits for before its first render, at most FIRST_RENDER_WAIT_MS: the page load's
 * code, the compiled catalog and antd's stylesheet. Each of them missing at the first render would
 * show a Suspense fallback, and React reveals what replaces a fallback no sooner than 300 ms after
 * it appeared; the fallback is an empty box anyway.
 */
export function beforeFirstRender(path: string, search: string, hash: string): Promise<void> {
  const code = startPageLoad(path, search, hash);
  const waits: Promise<unknown>[] = [code];
  // set when the page load started the shell (a signed-in page in the layout)
  if (catalogLoaded !== undefined) waits.push(catalogLoaded, ...(staticAntdStyles ? [antdStylesheet()] : []));
  return Promise.race([
    Promise.allSettled(waits).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
  ]);
}

function Loading() {
  return <div className="zs-loading" aria-busy="true" />;
}

export function AppRouter() {
  const [location, navigate] = useLocation();
  const menus = useAtomValue(menusAtom);
  const userInfo = useAtomValue(userInfoAtom);
  const token = useAtomValue(tokenAtom);
  const lock = useAtomValue(lockPasswordAtom);
  const lang = useAtomValue(langAtom);
  const setTabs = useSetAtom(tabsAtom);
  const setVisits = useSetAtom(visitsAtom);
  const menusAnswered = useAtomValue(menusAnsweredAtom);
  const resolved = useMemo(() => resolve(location, menus), [location, menus]);
  // another spelling of a menu's path: it is taken to the menu's own (one tab, the menu highlighted)
  const respelled = resolved.menu !== undefined && location.replace(/\/index$/, '') !== resolved.menu.path;
  const meta: RouteMeta = resolved.route?.meta ?? {};
  const decision = guard({
    path: location,
    meta,
    loggedIn: userInfo !== null,
    token,
    locked: lock !== null,
    mustChangePassword: userInfo?.must_change_password === true,
  });

  useEffect(() => {
    if (decision.kind === 'redirect') {
      if (decision.logout) endSession();
      const timer = setTimeout(() => navigate(decision.to, { replace: true }), decision.delayMs ?? 0);
      return () => clearTimeout(timer);
    }
    if (decision.addTab && !respelled && (resolved.route || resolved.menu)) {
      const tab = tabFor(location, resolved);
      const tabs = appStore.get(tabsAtom);
      if (!tabs.some((t) => t.value === location)) setTabs([...tabs, tab]);
      if (location !== website.firstPage.path)
        setVisits({ ...appStore.get(visitsAtom), [location]: (appStore.get(visitsAtom)[location] ?? 0) + 1 });
    }
    return undefined;
  }, [decision.kind, location, resolved]);

  const inLayout = decision.kind !== 'redirect' && (resolved.menu !== undefined || resolved.route?.inLayout === true);
  const Page = resolved.route?.page ?? EntityPage;
  useEffect(() => {
    if (inLayout) void Promise.allSettled(preloadShell(Page));
  }, [inLayout, Page]);

  useEffect(() => {
    const title = resolved.menu
      ? menuName(resolved.menu, lang)
      : resolved.route?.meta.title
        ? translate(lang, resolved.route.meta.title)
        : website.title;
    document.title = title;
  }, [resolved, lang]);

  const unmatched = !resolved.route && !resolved.menu;
  const signedIn = decision.kind !== 'redirect' && userInfo !== null;
  useEffect(() => {
    if (unmatched && signedIn) requestSessionOnce();
  }, [unmatched, signedIn]);

  if (location === '/' || location === '/wel') return <Redirect to={website.firstPage.path} replace />;
  if (respelled) return <Redirect to={resolved.menu!.path} replace />;
  if (decision.kind === 'redirect') return <Loading />;
  // the menus' answer may hold the page: a 403 or 404 said before it would be wrong
  if (unmatched && !menusAnswered) return <Loading />;
  if (unmatched)
    return (
      // whether the path is a page the user is not granted, or none at all, the catalog tells
      <Suspense fallback={<Loading />}>
        <CatalogGate>
          <NoPage path={location} />
        </CatalogGate>
      </Suspense>
    );
  const content = (
    <Suspense fallback={<Loading />}>
      <Page params={resolved.menu ? { menuCode: resolved.menu.code, path: resolved.menu.path } : resolved.params} />
    </Suspense>
  );
  if (resolved.route?.page === Login) return content;
  return (
    <Suspense fallback={<Loading />}>
      <ShellProviders>
        {resolved.route && !resolved.route.inLayout ? (
          content
        ) : (
          <CatalogGate>
            <Layout>{content}</Layout>
          </CatalogGate>
        )}
      </ShellProviders>
    </Suspense>
  );
}
