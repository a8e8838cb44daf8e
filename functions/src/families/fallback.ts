/**
 * The family with no operations: Hosting sends every `/api` path that no family claims here,
 * so it answers a JSON 404 problem instead of the web app's HTML.
 */
import { createFamily } from '../http/create-family.js';

export const handler = createFamily('fallback', {});
