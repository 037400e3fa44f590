// The signed-in shell renders once the schema catalog is loaded from the server (renderers/
// catalog.ts): every document page compiles its screens from it. Loaded once per page load (the
// browser's cached copy revalidated by ETag); code generation's install loads it again. The shell
// gets the app's renderer registry here, whose approval actions follow the catalog.
import { use, type ReactNode } from 'react';
import { ApiError } from '../api/http.ts';
import { catalog, catalogReady, loadCatalog } from '../renderers/catalog.ts';
import { RegistryContext } from '../renderers/registry.ts';
import { fetchSchemaSet } from './bootstrap.ts';
import { appRegistry, installAppPacks } from './registry.ts';

let first: Promise<void> | undefined;

function firstLoad(): Promise<void> {
  installAppPacks();
  first ??= loadCatalog(fetchSchemaSet).catch((err: unknown) => {
    first = undefined;
    // a lapsed session is already on its way to the login page: stay suspended until unmounted
    if (err instanceof ApiError && err.code === 401) return new Promise<void>(() => undefined);
    throw err;
  });
  return first;
}

export default function CatalogGate({ children }: { children: ReactNode }) {
  if (!catalogReady()) use(firstLoad());
  return <RegistryContext.Provider value={appRegistry(catalog())}>{children}</RegistryContext.Provider>;
}
