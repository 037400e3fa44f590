// Security headers on every answer of the app: the client's pages, its static files, the API and
// the error answers. Each CSP directive is as narrow as the client allows; docs/security.md
// says why each one reads as it does. JSON, scripts and stylesheets are never the app's page, so
// they carry a policy that allows nothing: a fifth of the header's bytes on each of them.
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
  // for browsers that predate frame-ancestors
  'x-frame-options': 'SAMEORIGIN',
};

/** The Content-Security-Policy of an answer of this Content-Type. */
export function policyFor(contentType: string): string {
  return RESOURCE_TYPES.test(contentType) ? RESOURCE_POLICY : CONTENT_SECURITY_POLICY;
}

/** Adds the headers to every answer; a route that set one of them itself keeps its own. */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', policyFor(String(reply.getHeader('content-type') ?? '')));
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });
}
