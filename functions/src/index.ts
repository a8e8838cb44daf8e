/**
 * Evident's Cloud Functions: one HTTPS function per `/api` route family, each reached through
 * a Hosting rewrite in `firebase.json`. This file only wires families to triggers; each family
 * module is loaded on its function's first request so no function pays for another's code.
 */
import { onRequest, type HttpsOptions } from 'firebase-functions/v2/https';
import './config.js'; // declares the params, so deploys and the emulator know them
import { installFrameworkErrorHandler } from './http/framework-errors.js';
import { lazyHandler } from './http/lazy-handler.js';

installFrameworkErrorHandler();

const http: HttpsOptions = {
  invoker: 'public',
  timeoutSeconds: 60,
  // CORS is the HTTP core's job (CORS_ORIGINS, read per request). The emulator would otherwise
  // allow every origin (its enableCors debug feature); `cors: false` stops that so local runs
  // behave like production, where the option would only add a wrapper to every request.
  ...(process.env.FUNCTIONS_EMULATOR === 'true' ? { cors: false } : {}),
};

export const auth = onRequest(
  http,
  lazyHandler('auth', () => import('./families/auth.js')),
);
export const docs = onRequest(
  http,
  lazyHandler('docs', () => import('./families/docs.js')),
);
export const fallback = onRequest(
  http,
  lazyHandler('fallback', () => import('./families/fallback.js')),
);
