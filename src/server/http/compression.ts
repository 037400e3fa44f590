// What travels compressed, and how the client's files are cached (docs/deployment.md#compression-and-caching).
// - The client's files: the build writes a .br and a .gz beside each (vite.config.ts); @fastify/static
//   sends the one the browser accepts, with `Vary: Accept-Encoding`. Nothing is compressed per request.
//   Hashed files (assets/) are cached for a year, immutable; index.html is revalidated (no-cache + ETag).
// - API answers: compressed on the fly (Brotli or gzip) when larger than COMPRESS_THRESHOLD bytes.
//   Event streams are never compressed: a compressor holds events back until its buffer fills.
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** API answers smaller than this travel as they are: compression would save less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/** JSON and text answers; not event streams, not files that are compressed already (images, xlsx, zip). */
const COMPRESSIBLE = /^(?:application\/(?:[\w.-]+\+)?(?:json|xml|javascript)|text\/(?!event-stream)|image\/svg\+xml)(?:;|$)/;

/** Cache-Control of a file of the built client: hashed names never change, the page is revalidated. */
export function clientCacheControl(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Compresses the API's answers above the threshold. Call before any route is added: the plugin hooks
 * each route as it is registered. The client's files (routes outside /api) come precompressed.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) route.compress = false;
  });
  // small answers and clients that accept no encoding too: a cache keeps each encoding apart
  app.addHook('onSend', async (request, reply) => {
    if ((request.routeOptions.url ?? request.url).startsWith('/api') && COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? '')))
      varyOnEncoding(reply);
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    // Brotli's quality 4 compresses a page of a list in about the time gzip takes, a little smaller
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    // request bodies arrive as sent: a compressed body would slip past the size limits (http/limits.ts)
    globalDecompression: false,
  });
}

/** Adds Accept-Encoding to the answer's Vary header, once. */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return;
  reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
}

/** The encoding of a cached answer the client accepts, Brotli first; undefined when it accepts neither. */
export function acceptedEncoding(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const [br, gzip] = [weight('br'), weight('gzip')];
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : undefined;
}
