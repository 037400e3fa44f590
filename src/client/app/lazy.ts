// Lazy pages: a chunk that has not arrived after 120 s fails with a chunk load error, which the
// local error log records.
import { logError } from '../state/session.ts';
import { website } from './website.ts';

export class ChunkLoadError extends Error {
  constructor() {
    super(`Loading chunk timed out after ${website.chunkLoadTimeoutMs} ms`);
    this.name = 'ChunkLoadError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

export function lazyWithTimeout<T>(loader: () => Promise<T>): () => Promise<T> {
  return () =>
    withTimeout(loader(), website.chunkLoadTimeoutMs, () => new ChunkLoadError()).catch((err: Error) => {
      logError({
        type: err.name === 'ChunkLoadError' ? 'chunk' : 'error',
        message: err.message,
        stack: err.stack ?? '',
        info: 'lazy page',
      });
      throw err;
    });
}
