// Lazy pages: a chunk that has not arrived after 120 s fails with a chunk load error, which the
// local error log records. Lazy dialogs: the shell's rarely opened dialogs load on first opening.
import { createElement, lazy, Suspense, useRef, useState, type ComponentProps, type ComponentType } from 'react';
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

/**
 * A dialog whose code is fetched when it first opens (`isOpen` of its props): until then nothing is
 * rendered, and from then on it stays mounted as an eager one would (its closing animation, its
 * state between openings). For the shell's dialogs, which every page carries and few users open.
 */
export function lazyWhenOpen<P extends object>(
  loader: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean = (props) => (props as { open?: boolean }).open === true,
): ComponentType<P> {
  const Dialog = lazy(lazyWithTimeout(() => loader().then((component) => ({ default: component }))));
  return function LazyWhenOpen(props: P) {
    const [opened, setOpened] = useState(false);
    if (!opened && isOpen(props)) setOpened(true);
    return opened || isOpen(props) ? createElement(Suspense, { fallback: null }, createElement(Dialog as ComponentType<P>, props)) : null;
  };
}

/**
 * A lazy component that renders at once when its module is already in (loaded by `preload`, as a
 * page load does for the shell and the page, or by an earlier render). React.lazy suspends at least
 * once even then, and a suspension shows the fallback of the Suspense boundary around it, whose
 * content React 19 then reveals no sooner than 300 ms after that fallback appeared: on a reload that
 * was half a second of waiting for the shell's nested lazy parts. An instance keeps the way it
 * mounted (switching would remount what is under it).
 */
export function lazyPreloaded<M extends { default: ComponentType<any> }>(loader: () => Promise<M>) {
  type P = ComponentProps<M['default']>;
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<M> | undefined;
  const preload = () => {
    loading ??= loader().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (err: unknown) => {
        loading = undefined; // asked for again by the next render
        throw err;
      },
    );
    return loading;
  };
  const Lazy = lazy(lazyWithTimeout(preload));
  function Preloaded(props: P) {
    const ready = useRef(loaded);
    return ready.current ? createElement(ready.current, props) : createElement(Lazy as ComponentType<P>, props);
  }
  return Object.assign(Preloaded, { preload });
}
