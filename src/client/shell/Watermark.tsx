// The watermark with the user's real name. Every 500 ms (and on any DOM change to it) its presence
// and look are checked; if it was removed or altered (from the dev tools), it is put back.
import { useEffect } from 'react';
import { website } from '../app/website.ts';

const ID = 'zs-watermark';

function image(text: string, colour: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = 260;
  canvas.height = 160;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.rotate((-20 * Math.PI) / 180);
    ctx.font = '16px "WenQuanYi Micro Hei", "Microsoft YaHei", sans-serif';
    ctx.fillStyle = colour;
    ctx.fillText(text, 10, 110);
  }
  return canvas.toDataURL('image/png');
}

function styleFor(url: string): string {
  return `position:fixed;inset:0;pointer-events:none;z-index:9999;background-repeat:repeat;background-image:url(${url})`;
}

export function ensureWatermark(text: string, url: string): HTMLElement {
  let node = document.getElementById(ID);
  const expected = styleFor(url);
  if (!node) {
    node = document.createElement('div');
    node.id = ID;
    node.dataset.text = text;
    document.body.appendChild(node);
  }
  if (node.getAttribute('style') !== expected) node.setAttribute('style', expected);
  if (node.dataset.text !== text) node.dataset.text = text;
  return node;
}

export function Watermark({ text, colour }: { text: string; colour: string }) {
  useEffect(() => {
    const url = image(text, colour);
    ensureWatermark(text, url);
    const timer = setInterval(() => ensureWatermark(text, url), website.watermarkCheckMs);
    const observer = new MutationObserver(() => ensureWatermark(text, url));
    observer.observe(document.body, { childList: true, attributes: true, subtree: true, attributeFilter: ['style', 'class', 'id'] });
    return () => {
      clearInterval(timer);
      observer.disconnect();
      document.getElementById(ID)?.remove();
    };
  }, [text, colour]);
  return null;
}
