/**
 * Limits every request body is held to, whatever the operation, declared once: the runtime
 * guard and the HTTP core enforce them and the API description documents them. Import-free,
 * so the spec build can load it from source. Each operation's own largest body is its
 * `x-body-limit`.
 */

/** How deeply a JSON body may nest objects and arrays. Deeper bodies are refused before anything recurses over them. */
export const maxJsonDepth = 64;

/** What a compressed body (`Content-Encoding`) may inflate to, whatever the operation's limit. */
export const maxInflatedBytes = 16 * 1024 * 1024;

/** The content codings a body may arrive in. */
export const contentCodings = ['gzip', 'x-gzip', 'deflate', 'br', 'zstd'] as const;
