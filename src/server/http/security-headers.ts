// Security headers on every answer of the app: the client's pages, its static files, the API and
// the error answers. Each CSP directive is as narrow as the client allows; docs/security.md
// says why each one reads as it does. JSON, scripts and stylesheets are never the app's page, so
// they carry a policy that allows nothing, a fifth as long, and no X-Frame-Options.
import type { FastifyInstance } from 'fastify';

/** The Content-Security-Policy of the built client, one directive per entry. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // Ajv compiles the schemas' validators in the browser (new Function): the form checks the
  // server's rules before saving. No inline script and no other host.
  "script-src 'self' 'unsafe-eval'",
  // antd's CSS-in-JS and ECharts/bpmn-js insert <style> elements and style attributes at run time
  "style-src 'self' 'unsafe-inline'",
  // files and avatars come through the server (/api/blade-resource/…); charts export as data: and blob:
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // the API and the live messages (Server-Sent Events) are same-origin
  "connect-src 'self'",
  // menus may open an external page inside the layout (/myiframe/…), wherever the administrator points it
  "frame-src 'self' https: http:",
  // no other site may frame the app (clickjacking); its own iframe page may
  "frame-ancestors 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** The policy of an answer that is data, a script or a stylesheet: opened on its own, it may load and run nothing. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'self'";

/** Answers that are no page: they take RESOURCE_POLICY. */
const RESOURCE_TYPES = /^(?:application\/(?:[\w.-]+\+)?json|application\/javascript|text\/javascript|text\/css)(?:;|$)/;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // a file is what its Content-Type says: an uploaded .txt is never run as a script
  'x-content-type-options': 'nosniff',
  // other sites see the origin only, never a path with a record id or a token in it
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** For browsers that predate frame-ancestors: on what takes the page's policy (JSON, scripts and styles are never framed as a page). */
const FRAME_OPTIONS = 'SAMEORIGIN';

/** Adds the headers to every answer; a route that set one of them itself keeps its own. */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_request, reply, payload) => {
    const resource = RESOURCE_TYPES.test(String(reply.getHeader('content-type') ?? ''));
    const headers = resource
      ? { 'content-security-policy': RESOURCE_POLICY, ...SECURITY_HEADERS }
      : { 'content-security-policy': CONTENT_SECURITY_POLICY, ...SECURITY_HEADERS, 'x-frame-options': FRAME_OPTIONS };
    for (const [name, value] of Object.entries(headers)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}
