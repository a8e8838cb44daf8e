// Generated from the OpenAPI description by scripts/lib/api-types.ts. Do not edit.
export interface paths {
    "/api/auth/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the authentication mode
         * @description Tells a client whether it must sign in. Always public, in both modes; a client calls it first and signs in only when `authRequired` is true.
         */
        get: operations["getAuthConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identify the caller
         * @description Returns who the server takes the caller to be, from the bearer token. Useful to check a collector's token. Protected mode: needs a valid token. Public mode: answers `authenticated: false` without one.
         */
        get: operations["getCaller"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/index": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List documentation pages
         * @description Every page the caller may read. In protected mode gated pages are listed only to a caller with a valid token; an invalid token is not an error here, it just lists the public pages.
         */
        get: operations["listDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/page/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a documentation page
         * @description One page, as sanitised HTML and as its Markdown source. A gated page in protected mode needs a valid token (401 otherwise); every other page is public.
         */
        get: operations["getDocPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An RFC 9457 problem detail. `code` is stable and safe to branch on; `title` and `detail` are for people. */
        Problem: {
            /**
             * Format: uri-reference
             * @description Reference to the documentation of this problem code.
             * @example /docs/reference-errors#invalid_request
             */
            type: string;
            /** @description Short summary of the problem code. */
            title: string;
            /** @description The HTTP status code. */
            status: number;
            /** @description What went wrong with this request. */
            detail?: string;
            /**
             * Format: uri-reference
             * @description The path of the request.
             */
            instance?: string;
            /**
             * @description Stable machine-readable problem code.
             * @enum {string}
             */
            code: "invalid_request" | "malformed_json" | "unauthenticated" | "invalid_token" | "token_expired" | "not_found" | "doc_not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "internal";
            /** @description Identifies the request in the server logs. */
            requestId: string;
            /** @description For `invalid_request`: each way the request failed validation. */
            errors?: components["schemas"]["RequestError"][];
        };
        RequestError: {
            /** @enum {string} */
            in: "path" | "query" | "header" | "body";
            /** @description The parameter, for path, query and header errors. */
            name?: string;
            /** @description JSON Pointer into the body, for body errors. */
            pointer?: string;
            message: string;
        };
        /**
         * @example {
         *       "authRequired": false
         *     }
         */
        AuthConfig: {
            /** @description True when protected operations need a bearer token (protected mode); false in public mode. */
            authRequired: boolean;
        };
        /**
         * @example {
         *       "authenticated": true,
         *       "uid": "h3R0…",
         *       "email": "ada@example.com",
         *       "emailVerified": true,
         *       "signInProvider": "google.com"
         *     }
         */
        Caller: {
            /** @description True when the request carried a valid ID token. */
            authenticated: boolean;
            /** @description The user id from the token. */
            uid?: string;
            /** Format: email */
            email?: string;
            emailVerified?: boolean;
            name?: string;
            /** @description How the user signed in, e.g. `google.com` or `password`. */
            signInProvider?: string;
        };
        DocSummary: {
            slug: string;
            title: string;
            description: string;
            /** @description The section the page belongs to, e.g. "Guides". */
            section: string;
            /** @description Sort key of the page; sections take the order of their first page. */
            order: number;
            /** @description True when the page needs a valid token in protected mode. */
            gated: boolean;
        };
        DocIndex: {
            /** @description The pages the caller may read, sorted by `order`. */
            pages: components["schemas"]["DocSummary"][];
        };
        DocHeading: {
            depth: number;
            /** @description The `id` of the heading element in `html`. */
            id: string;
            text: string;
        };
        DocPage: {
            slug: string;
            title: string;
            description: string;
            /** @description The section the page belongs to, e.g. "Guides". */
            section: string;
            /** @description Sort key of the page; sections take the order of their first page. */
            order: number;
            /** @description True when the page needs a valid token in protected mode. */
            gated: boolean;
            /** @description The page rendered to sanitised HTML, safe to insert into a document. */
            html: string;
            /** @description The Markdown source, without its frontmatter. */
            markdown: string;
            headings: components["schemas"]["DocHeading"][];
        };
    };
    responses: {
        /** @description The request does not match the API description. Codes: `invalid_request`, `malformed_json`. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Protected mode only: the bearer token is missing, invalid or expired. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No documentation page has this slug. Codes: `doc_not_found`. */
        DocNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The server failed; nothing about the cause is disclosed. Codes: `internal`. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identifies the request in the server logs; also in every problem body. */
        RequestId: string;
        /** @description The `Bearer` challenge (RFC 6750), with `error="invalid_token"` when a token was sent but rejected. */
        WwwAuthenticate: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAuthConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server's authentication mode. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getCaller: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's identity. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Caller"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    listDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The documentation index. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocIndex"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getDocPage: {
        parameters: {
            query?: never;
            header?: {
                /** @description An `ETag` from an earlier response; a match answers 304 without a body. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The page slug from the index. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the page content. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocPage"];
                };
            };
            /** @description The page has not changed since the `ETag` in `If-None-Match`. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["DocNotFound"];
            500: components["responses"]["InternalError"];
        };
    };
}
