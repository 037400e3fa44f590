// The schema set this process serves, and how it grows while the server runs. Code generation's
// install adopts a set with one more document type and announces it on the cache bus (NOTIFY on
// PostgreSQL); every other process of the installation hears that and reads the set again from the
// schema folder they share, so the new type's routes, validation and OpenAPI answer everywhere.
// Browsers compile their catalog from the same set (GET /api/schemas), tagged with its version.
import { createHash } from 'node:crypto';
import { brotliCompress, brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { compile, type CompileResult } from '../../../engine/model/compile.ts';
import type { SchemaSource } from '../../../engine/model/source.ts';
import type { Queryable } from '../../db/db.ts';
import { registerEntityRoutes, registerRouteAliases, type RouteContext } from '../../http/entity-routes.ts';
import type { CacheBus } from '../../realtime/cache-bus.ts';
import { readSchemaSource } from '../../schema-source.ts';
import type { RouteTable } from '../../http/route-table.ts';

/**
 * The set as browsers fetch it: JSON, and Brotli or gzip for those that accept it. Every signed-in
 * page load that misses the browser's cache fetches it, so its Brotli copy is made at the highest
 * quality, once per version, on a thread of the pool (about half a second of CPU that the event
 * loop never waits for) when the version is first asked for; until that copy is ready, a quick one
 * (quality 6) answers. A process nobody asks (a test's server) never makes it.
 */
export class SchemaSetAnswer {
  private encoded: { br?: Buffer; gzip?: Buffer } = {};
  private smallest?: Buffer;

  constructor(
    readonly version: string,
    readonly json: Buffer,
  ) {
    brotliCompress(json, brotliParams(11, json), (err, smallest) => {
      if (!err) this.smallest = smallest;
    });
  }

  encodedAs(encoding: 'br' | 'gzip'): Buffer {
    if (encoding === 'br' && this.smallest) return this.smallest;
    this.encoded[encoding] ??= encoding === 'br' ? brotliCompressSync(this.json, brotliParams(6, this.json)) : gzipSync(this.json);
    return this.encoded[encoding];
  }
}

function brotliParams(quality: number, json: Buffer) {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } };
}

/** A digest of the set's content: the same files give the same version, whatever their order. */
export function versionOf(source: SchemaSource): string {
  const files = Object.keys(source.files)
    .sort()
    .map((path) => [path, source.files[path]]);
  return createHash('sha256')
    .update(JSON.stringify([source.manifest, files, source.meta]))
    .digest('base64url')
    .slice(0, 22);
}

export interface LiveSchemasOptions {
  /** The folder of entities.manifest.json and schemas/, shared by the installation's processes. */
  root: string;
  /** The set the process started with (compiled into ctx.catalog). */
  source: SchemaSource;
  ctx: RouteContext;
  /** The table of generic routes, where a type added while running gets its own. */
  routes: RouteTable;
  /** Carries "the schema set changed" to every process (after a lost connection too: reload). */
  bus: CacheBus;
  /** A reload that failed: the process keeps serving the set it has. */
  onError: (err: unknown) => void;
}

export class LiveSchemas {
  private source: SchemaSource;
  private current: { version: string; answer?: SchemaSetAnswer };

  constructor(private readonly options: LiveSchemasOptions) {
    this.source = options.source;
    this.current = { version: versionOf(options.source) };
    options.bus.on('schemas', () => this.reload());
  }

  get version(): string {
    return this.current.version;
  }

  /** The set for browsers, encoded once per version. */
  answer(): SchemaSetAnswer {
    if (!this.current.answer) {
      const json = Buffer.from(JSON.stringify({ version: this.current.version, ...this.source }));
      this.current.answer = new SchemaSetAnswer(this.current.version, json);
    }
    return this.current.answer;
  }

  /**
   * Serves `compiled` (the set `source` compiles to): validation and grants from it at once, the
   * generic routes (and aliases) of each document type it adds, in the route table. Additive: routes
   * of the types already served stay as they are.
   */
  adopt(source: SchemaSource, compiled: CompileResult) {
    const { ctx, routes } = this.options;
    const before = ctx.catalog;
    ctx.catalog = compiled.catalog;
    ctx.ajv = compiled.ajv;
    const added = Object.values(compiled.catalog.entities).filter((model) => !before.entities[model.key]);
    for (const model of added) registerEntityRoutes(routes.collector(), ctx, model);
    for (const model of added) registerRouteAliases(ctx, model, routes);
    // adopt runs synchronously (reload is a bus callback); invalidate forgets at once and catches its own announce errors
    void ctx.access.invalidate();
    this.source = source;
    this.current = { version: versionOf(source) };
  }

  /** Tells every other process of the installation that the set on disk changed. */
  async announce(db: Queryable): Promise<void> {
    await this.options.bus.announce(db, 'schemas');
  }

  /** Reads the set from disk and serves it when it differs from this process's (another process installed). */
  reload() {
    try {
      const source = readSchemaSource(this.options.root);
      if (versionOf(source) === this.version) return;
      this.adopt(source, compile(source, { validators: 'lazy' }));
    } catch (err) {
      this.options.onError(err);
    }
  }
}
