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
    "/api/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List report dates with their summaries
         * @description Every stored report’s date and summary, oldest first: enough to draw the score trend.
         */
        get: operations["listReports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/today": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get today’s report
         * @description Today’s report in the report time zone. If the daily job has not produced it yet, it is evaluated now, once: concurrent first requests all receive the same report.
         */
        get: operations["getTodayReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/{date}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the report of a date
         * @description The report of one day. A date that is not a calendar day (2026-02-30) answers 400; a date in the future, or a past day without a report, 404 `report_not_found`.
         */
        get: operations["getReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/{date}/oscal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the report of a date as OSCAL Assessment Results
         * @description The report of one day as an OSCAL Assessment Results JSON document.
         */
        get: operations["getReportOscal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/{date}/poam": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the open work of a date as an OSCAL POA&M
         * @description The controls failing, stale or missing evidence in the report of one day as an OSCAL Plan of Action and Milestones: per control a POA&M item and a risk with its first-seen day, owner, due date (the deadline and a milestone) and the observations behind it. With nothing open, one item says so (OSCAL requires an item).
         */
        get: operations["getReportPoam"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/{date}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the versions of the report of a date
         * @description Every version of a day’s report, oldest first, the current one last: the daily job’s report and each one an analysis published over it, with who published it and why. A day never republished has one version. A past day’s versions never change. The date answers as in `GET /api/report/{date}`.
         */
        get: operations["listReportVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report/{date}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one version of the report of a date
         * @description One version of a day’s report, the bytes as stored. A version never changes once made, so it is served as immutable. A version the day does not have answers 404 `report_not_found`.
         */
        get: operations["getReportVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List controls with their latest status */
        get: operations["listControls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/oscal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the catalog as an OSCAL component definition
         * @description The control catalog as an OSCAL 1.0.6 component definition: the NIST SP 800-53 rev5 controls it assesses, each with the Evident controls that do, and every Evident control with its objective, the evidence it needs, its framework ids, its owner and its checks.
         */
        get: operations["getCatalogOscal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one control with its latest result */
        get: operations["getControl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one control over a period
         * @description The control’s status on each day from `from` to `to`, the share of days it passed, its longest non-passing streak, how long fixes took, and every change of status with the findings and evidence on either side. Reads one report per day of the period. At most 366 days; `to` defaults to today and `from` to 89 days before `to`. A day that is not a calendar day, `from` after `to`, a `to` after today or a longer period answers 400.
         */
        get: operations["getControlHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/history.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export one control over a period as CSV
         * @description The history of `GET /api/controls/{id}/history` as CSV (RFC 4180, CRLF line ends), one row a day: `date`, `status` (empty without a report), and on the day of a change `changed_from` (`none` for a first assessment), `reasons` (the findings that were not a pass, or for a fix the ones it resolved, separated by ` | `) and `evidence_added` (space-separated ids). A cell a spreadsheet would take for a formula is prefixed with an apostrophe. The same period rules and problems as the JSON.
         */
        get: operations["exportControlHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/sample": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sample the days of a period a control was tested
         * @description A reproducible sample of the days from `from` to `to` that have a report (the population), for testing a control that operates daily: each day ranked by the SHA-256 of the seed, a line feed and the day, ascending (docs/sampling.md), the first `size` taken, each with the control’s status and evidence that day. Lists the period’s reports and reads only the sampled days’ reports. The same period rules as the history (at most 366 days, `to` defaults to today and `from` to 89 days before it); a size outside 1–60 or a seed that is empty, longer than 200 characters or not printable answers 400.
         */
        get: operations["getControlSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/sample.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a sample of a control’s days, or its population, as CSV
         * @description The sample of `GET /api/controls/{id}/sample` as CSV (RFC 4180, CRLF line ends, every field quoted, formulas defused as in the history export): with `rows=sample`, one row per sampled day in rank order, `rank`, `date`, `sha256`, `status`, `evidence` (space-separated ids); with `rows=population`, one row per day of the period that has a report, oldest first, `date`, `status`, `sha256`, `rank`, `sampled` (`yes` or `no`), which reads every day’s report. The same parameters and problems as the JSON.
         */
        get: operations["exportControlSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/population": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page the population a control was tested on in a day’s report
         * @description The subjects of one evidence kind the control’s checks ran on in the day’s report, in subject order, each with its outcome and the evidence item it rests on, `limit` at a time, with the population’s count and SHA-256. Reads the report’s run id and at most three stored objects a page, whatever the population’s size. A date that is not a calendar day, or a cursor this API did not give out for this control, day and kind, answers 400; a day without a report, or a report that recorded no such population (a kind the control does not read, or a report made before reports recorded them), 404.
         */
        get: operations["getControlPopulation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/population.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the population a control was tested on in a day’s report as CSV
         * @description Every subject of `GET /api/controls/{id}/population` as CSV (RFC 4180, CRLF line ends, every field quoted, formulas defused as in the history export), in subject order: `subject`, `outcome`, `evidence_id`. Sent as it is read, a stored chunk of subjects at a time. The population’s count, SHA-256 (as the page gives it) and report run id are in the `Evident-Population-Count`, `Evident-Population-Sha256` and `Evident-Report-Run-Id` headers. The same parameters and problems as the JSON.
         */
        get: operations["exportControlPopulation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/population/sample": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sample the subjects of the population a control was tested on in a day’s report
         * @description A reproducible sample of the subjects of `GET /api/controls/{id}/population`: each ranked by the SHA-256 of the seed, a line feed and the subject, ascending (docs/sampling.md), the first `size` taken, each with its outcome and evidence item. Reads the population’s header and every stored chunk of it (a chunk holds 2,000 subjects). A size outside 1–60, or a seed that is empty, longer than 200 characters or not printable, answers 400; otherwise the same parameters and problems as the population.
         */
        get: operations["getControlSubjectSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/controls/{id}/population/sample.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a sample of the subjects a control was tested on as CSV
         * @description The sample of `GET /api/controls/{id}/population/sample` as CSV (RFC 4180, CRLF line ends, every field quoted, formulas defused as in the history export), one row per sampled subject in rank order: `rank`, `subject`, `sha256` (the digest that ranked it), `outcome`, `evidence_id`. The same parameters and problems.
         */
        get: operations["exportControlSubjectSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/frameworks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness for each framework
         * @description Each framework’s share of requirements met, its counts and its coverage, from the report of `date` (today by default, produced on first read like `GET /api/report/today`).
         */
        get: operations["listFrameworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/frameworks/{framework}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness for one framework
         * @description Every requirement of the framework the catalog covers, with its status and its controls’, the requirements no control covers, and the share met over the year up to `date`.
         */
        get: operations["getFramework"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exceptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List exceptions
         * @description Exceptions soonest expiry first, filtered and paged. A page of active or requested ones reads the index of open exceptions of each control (of one, with `control`) and the exceptions shown; a page of refused or ended ones, or of all, lists names from the cursor’s place and reads the exceptions shown. Neither grows with the history.
         */
        get: operations["listExceptions"];
        put?: never;
        /**
         * Request that a risk be accepted until a date
         * @description Records a request for an exception for a control, or for one subject of it, with the caller (from the ID token) as the requester; it counts once another person approves it (`approveException`). The control must be in the catalog and a subject must be one its findings name in the latest report; `expiresOn` must be after today and at most a year ahead. A control may have at most 3 exceptions requested or active for one subject, and as many for the whole control; one more answers 409 `too_many_exceptions` until one of them is refused, revoked or expires.
         */
        post: operations["createException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exceptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one exception */
        get: operations["getException"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exceptions/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a requested exception
         * @description Approves a requested exception, with the caller recorded as its approver and an optional comment; reports from the next one on (or an analysis that publishes today’s) mark what it covers as accepted. An exception is reviewed once, by someone other than its requester: the requester answers 403 `self_review`, and an exception already approved or refused, revoked or past its expiry day answers 409 `exception_not_pending` (of two people reviewing it at once, one wins). In public mode callers need not sign in, so the server cannot tell the requester and the reviewer apart: the review is recorded with `independent` false and says why in `caveat`; only a caller signed in as the requester is refused there.
         */
        post: operations["approveException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exceptions/{id}/refuse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refuse a requested exception
         * @description Refuses a requested exception, with the caller and the reason recorded; it never counts, and is kept. An exception is reviewed once, by someone other than its requester: the requester answers 403 `self_review`, and an exception already approved or refused, revoked or past its expiry day answers 409 `exception_not_pending` (of two people reviewing it at once, one wins). In public mode callers need not sign in, so the server cannot tell the requester and the reviewer apart: the review is recorded with `independent` false and says why in `caveat`; only a caller signed in as the requester is refused there.
         */
        post: operations["refuseException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exceptions/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an exception
         * @description Ends an exception before its expiry, with the caller recorded; reports from the next one on count what it covered again. Revoking a request before its review withdraws it. An exception is revoked once: a second revocation answers 409.
         */
        post: operations["revokeException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/signing-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the key audit packages are signed with
         * @description The Ed25519 public keys audit packages’ manifests are signed with (`manifest.sig` over `manifest.json`), newest first, each with its fingerprint. Public, so an auditor can check a package without an account: `node verify/verify.mjs . --key key.pem` in the unpacked package (docs/audit-verification.md).
         */
        get: operations["getAuditSigningKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/package": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the audit package of a period
         * @description A zip of everything about the days from `from` to `to` (at most 366 days, up to today in the report time zone):
         *
         *     - `README.txt`: what is where;
         *     - `reports/<date>.json`: each day’s report, the bytes stored (its last version);
         *     - `versions/<date>/<n>.json`: each earlier version of a day’s report that a publish replaced, as stored (`GET /api/report/{date}/versions`), with the evidence they rest on among `evidence/`;
         *     - `oscal/assessment-results/<date>.json`: each as OSCAL Assessment Results;
         *     - `oscal/poam-<date>.json`: the OSCAL POA&M as of the period’s last report;
         *     - `history/controls.csv`: every control over the period, one row each (days assessed and passing, the longest run not passing, fixes and their mean time);
         *     - `history/<control>.csv`: one control a day, as `GET /api/controls/{id}/history.csv`;
         *     - `catalog/catalog.json`, `inputs/`: the catalog the reports name, the report before the period, and per day the exceptions in force and the collection-run populations its evaluation saw;
         *     - `evidence/<kind>/<subject>/<date>-<id>.json`: the evidence state at the start of the period and every item received after, up to the last report’s making, so every item the reports’ results rest on (`:` in an id written `%3A`);
         *     - `attachments/<submission>/<n>-<name>`: the files of the submissions among that evidence;
         *     - `manifest.json`: the period, who asked, each report’s and each earlier version’s run, each file’s size and SHA-256, and any file that could not be included with why (an attachment whose bytes no longer match the SHA-256 recorded at submission is left out and listed there);
         *     - `verify/verify.mjs`: the verifier for a plain Node, which re-derives every report byte for byte (docs/audit-verification.md); `index.html` and `evidence.html`: the package to read offline;
         *     - `manifest.sig`: the manifest’s Ed25519 signature (`GET /api/audit/signing-key`), when the package was signed;
         *     - `SHA256SUMS`: the same digests and the manifest’s, for `sha256sum -c`.
         *
         *     The archive is made while it is sent (chunked, no `Content-Length`): a failure after the first byte cuts the connection, so a client never holds a truncated archive as whole. Through Firebase Hosting a response must finish within 60 seconds; for long periods call the function’s own URL.
         */
        get: operations["getAuditPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit packages
         * @description The packages asked for and not yet lapsed, newest first, with their state.
         */
        get: operations["listAuditPackages"];
        put?: never;
        /**
         * Build the audit package of a period in the background
         * @description Hands the package of the days from `from` to `to` (at most 366 days) to a job on the task queue, which writes the zip (the contents `GET /api/audit/package` describes) to storage; follow its events, then download it with `Range` from `links.download`. The same period asked again while the reports behind it are unchanged answers the package already built or building (200), with its progress; a report published since makes a new one (202). A package is kept `AUDIT_PACKAGE_DAYS` days (14 by default).
         */
        post: operations["startAuditPackage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/packages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an audit package */
        get: operations["getAuditPackageBuild"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/packages/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow an audit package being built
         * @description Server-sent events, as for analyses: every event after `Last-Event-ID`, then new ones as they are persisted; 204 once the build has ended and every event was received. With `Accept: application/json` the events persisted so far come as one list.
         */
        get: operations["streamAuditPackageEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/packages/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a built audit package, whole or in ranges
         * @description The zip, from storage. One `Range: bytes=<first>-<last>` (or `<first>-`, or `-<suffix>`) answers 206 with that part and `Content-Range`, so a long download resumes where it stopped and fits each request within Hosting’s 60 seconds; `If-Range` with the `ETag` (the zip’s SHA-256) answers the whole zip if it changed. A range outside the file answers 416.
         */
        get: operations["downloadAuditPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the auditor’s requests
         * @description The whole list (at most 500 requests) in id order, filtered by status or control: one listing, and a read of each request shown.
         */
        get: operations["listAuditRequests"];
        put?: never;
        /**
         * Add a request to the auditor’s list
         * @description Records a request, open, with the caller as its creator. The control must be in the catalog; an `id` already in the list answers 409 `audit_request_changed`, and a list already holding 500 requests 409 `audit_request_limit`.
         */
        post: operations["createAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a request list from CSV
         * @description A request list as CSV (RFC 4180, UTF-8, a byte-order mark allowed), one request a row. Columns, named in a header row in any order: `id`, `control`, `from`, `to`, `description` (`id` optional; the export adds `status`, `answers` and `history`, which an import reads past). At most 500 rows and 512 KiB. All or nothing: every row is checked first, and any fault answers 400 with an error per fault naming its `line`, its column (`pointer`: `/<column>`) and its row in `message`: an unknown control, a bad period, an empty description, a row that repeats another (the same control, period and description, or the same id), a cell starting with = + - or @ (a spreadsheet formula), text that is not UTF-8 (save it as "CSV UTF-8"), or CSV that breaks the RFC. A row whose id, or whose control, period and description, is already in the list is left as it is (`unchanged`), so importing a list again makes nothing twice; an id already in the list with another control, period or description is a fault of its row.
         */
        post: operations["importAuditRequests"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the request list with its answers as CSV
         * @description The list in id order as CSV (RFC 4180, CRLF line ends, every field quoted, a cell a spreadsheet would take for a formula prefixed with an apostrophe): `id`, `control`, `from`, `to`, `description`, `status`, `answers`, `history`. `answers` has one answer a line (`<kind> <ref> (<note>)`), `history` one step a line (`<at> <action> by <who>: <comment>`). It imports again as it is.
         */
        get: operations["exportAuditRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one request with its answers and history */
        get: operations["getAuditRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a request’s period or description
         * @description Records the edit in its history; its status stays. An accepted request is reopened first (409 `audit_request_status`).
         */
        post: operations["editAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add answers to a request, or take them back
         * @description Adds answers (each must name something that exists; a fault answers 400 at `/add/<index>/ref`) and removes others; at most 50 in all. A request with answers is `answered` (a returned one awaits the auditor again); one without is `open`. An accepted request is reopened first.
         */
        post: operations["answerAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an answered request
         * @description The auditor accepts the answers, with an optional comment. Only an answered request is accepted.
         */
        post: operations["acceptAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}/return": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Return an answered request with a comment
         * @description The auditor returns the answers as not enough, saying why. Only an answered request is returned; it is answered again by changing its answers.
         */
        post: operations["returnAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/requests/{id}/reopen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reopen an accepted request
         * @description Opens an accepted request again, saying why: it is answered (or open, without answers) and may be edited, answered and decided again.
         */
        post: operations["reopenAuditRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List evidence
         * @description Evidence items, newest `collectedAt` first, filtered and paged. A page costs one read per item shown, however long the history: every filter is answered from an index.
         */
        get: operations["listEvidence"];
        put?: never;
        /**
         * Ingest evidence
         * @description One item, or `{"items": [...]}` with up to 500. Each item’s `data` must match its kind. The batch is all or nothing when it is invalid; valid items are stored create-only, so a retry stores nothing twice. Without item ids, send an `Idempotency-Key` to make the retry safe.
         */
        post: operations["ingestEvidence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence/imports/ocsf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import scanner findings (OCSF)
         * @description A cloud security scanner’s output as OCSF Detection Findings (class 2004): Prowler’s `json-ocsf` file as it is (a JSON array), or one finding per line (`application/x-ndjson`). Each finding becomes a `scanner.finding` evidence item per resource: subject the resource’s `uid`, source the product and account, `collectedAt` the finding’s `time`, and in `data` the check (`metadata.event_code`), status (`status_code` PASS, FAIL or MANUAL), whether it is muted, severity, region, account, title, message and remediation. A finding that names several resources stores its title, message and remediation once, on the first resource’s item (with `resourceCount`); the other items name that item in `textsIn`. Ids come from the finding’s `finding_info.uid`, time, check and resource, so importing the same scan again stores nothing twice.
         *
         *     The file is read whole before anything is stored, and stored all at once or not at all: a finding that cannot be read refuses the request with 400, each error naming its `line` and, in an array, its index as `pointer`; so does a finding that names more than 1,000 resources, or more than 100 requirements of one framework. One import reads at most 16 MiB, 5,000 findings and 5,000 items (one per finding and resource) of at most 16 MiB as JSON: beyond any of them, 413 `scan_too_large` (or `payload_too_large` for the body), and nothing is stored. Import larger scans with `npm run collect -- --format ocsf`, which streams them in batches.
         */
        post: operations["importOcsfFindings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evidence/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one evidence item */
        get: operations["getEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a source’s collection runs
         * @description The runs of one source, newest opened first, each as it stands now.
         */
        get: operations["listCollectionRuns"];
        put?: never;
        /**
         * Open a collection run
         * @description Opens a run for one source and the kinds it will send. Runs of one source may overlap. The run takes batches until it is completed or cancelled, or its `expiresAt` (`RUN_ABANDON_HOURS` after opening) passes; at most 200,000 items in 5,000 batches.
         */
        post: operations["openCollectionRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the sources that have opened collection runs
         * @description Every source that has opened a run, each with its newest run as it stands now, in the order of their names (URL-encoded; a name longer than 120 characters encoded sorts by a hash of it, before the others).
         */
        get: operations["listCollectionSources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/populations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a source’s complete populations of a kind
         * @description The populations the complete runs of one source defined for one kind, newest completed first: each run’s subject count and the SHA-256 of its subjects. A run that ended incomplete defines none, so it is not listed. `since` keeps those completed on or after a day (UTC), as a chart of the last 90 days asks.
         */
        get: operations["listCollectionPopulations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one collection run */
        get: operations["getCollectionRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a collection run
         * @description Ends the run with the count of items its collector sent per kind, and compares them with the distinct items received under it (a retried batch counts once). Both outcomes answer 200: `complete` when every count agrees, `incomplete` (`counts_disagree`) with both counts when one does not, which also announces `source.run_incomplete` to webhooks. A complete run whose population of a kind shrank by more than `POPULATION_DROP_PERCENT` since the previous complete run of its source and kind carries it in `drops`, announced as `population.dropped`. Of two requests that end a run at once, one wins; the other gets 409. A batch still being answered while the run completes may not be counted: complete a run once its batches have been answered.
         */
        post: operations["completeCollectionRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/drops/{kind}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge a population drop
         * @description Records, once, who acknowledged the run’s population drop of one kind and why; the run then shows it as `acknowledged` on that drop. Of two acknowledgements at once, one wins; the other gets 409. Evaluation does not yet read drops: controls failing until a drop is acknowledged comes with the evaluation of populations.
         */
        post: operations["acknowledgeCollectionRunDrop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a collection run
         * @description Ends the run as `cancelled`: it takes no more batches and never defines a population; its items stay stored. Announces `source.run_incomplete` to webhooks.
         */
        post: operations["cancelCollectionRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the built-in connectors
         * @description Each with what it collects, what it needs, whether it can run, and its newest run.
         */
        get: operations["listConnectors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{connector}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a connector */
        get: operations["getConnector"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{connector}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a connector now
         * @description Opens a collection run for the connector’s source and hands it to the task queue; it never collects inside this request. A connector that is not ready answers 409 `connector_not_ready` naming what it needs; one with a run still going answers 409 `connector_busy` naming it.
         */
        post: operations["startConnectorRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{connector}/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a connector run
         * @description Its state and progress, from its persisted events, and its collection run.
         */
        get: operations["getConnectorRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{connector}/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a connector run
         * @description Ends a queued or running run with `run.cancelled` and its collection run as cancelled; the worker stops at its next call. What it sent stays stored. A run that already ended answers 409 `run_ended`.
         */
        post: operations["cancelConnectorRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{connector}/runs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a connector run
         * @description Server-sent events, as for analyses: every event after `Last-Event-ID`, then new ones as they are persisted, each connection ending by itself with a `retry:` hint; 204 once the run has ended and every event was received. With `Accept: application/json` the events persisted so far come as one list.
         */
        get: operations["streamConnectorRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List submissions */
        get: operations["listSubmissions"];
        put?: never;
        /**
         * Submit manual evidence
         * @description A `multipart/form-data` form. The submitter is taken from the ID token when there is one. Too many or too large files answer 413, a file type outside the list 415, an unknown control 400. The form is read only up to 64 text fields, 8 files and 72 parts in all (`x-form-limits`), each text field up to 16 KiB: past a count it is refused with 413 `too_many_form_parts`, past the size with 400, before anything else is checked.
         */
        post: operations["createSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one submission */
        get: operations["getSubmission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/submissions/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept or reject a submission
         * @description Records the caller’s decision on a submission, with a reason (required to reject). A submission is reviewed once, by someone other than its submitter: the submitter answers 403 `self_review`, and a submission already reviewed answers 409 `submission_already_reviewed` (of two people reviewing it at once, one wins). A review is final: a rejected submission is made again as a new one. In public mode callers need not sign in, so the server cannot tell the submitter and the reviewer apart: the review is recorded with `independent` false and says why in `caveat`; only a caller signed in as the submitter is refused there. With `SUBMISSION_REVIEW` `required`, reports from the next one on (or an analysis that publishes today’s) count an accepted submission’s attestation, and never a rejected one’s.
         */
        post: operations["reviewSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/submissions/{id}/attachments/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attachment
         * @description The file, after checking it still has the SHA-256 recorded at upload; a mismatch is never served.
         */
        get: operations["downloadAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analyses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List recent analyses */
        get: operations["listAnalyses"];
        put?: never;
        /**
         * Start an analysis
         * @description Records the run and hands it to the task queue; it never runs inside this request. With an `Idempotency-Key`, a retry answers the same run. Unknown control ids answer 400; `publish` for a past day 409.
         */
        post: operations["startAnalysis"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analyses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an analysis
         * @description Its state and counts, derived from its persisted events.
         */
        get: operations["getAnalysis"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analyses/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an analysis
         * @description Ends a queued or running run with `run.cancelled` at once; the worker stops at its next control and publishes nothing. Cancelling a cancelled run answers it again; a run that already ended otherwise (or has evaluated its last control) answers 409.
         */
        post: operations["cancelAnalysis"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analyses/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow an analysis
         * @description Server-sent events (`Accept: text/event-stream`, the default): first every event after `Last-Event-ID` (the header, else the `lastEventId` query parameter, else from the start), then new ones as they are persisted. Comment lines (`: heartbeat`) keep an idle connection open. Each connection ends by itself after `STREAM_MAX_SECONDS` (and, through a proxy that buffers, soon after delivering something) with a `retry:` hint: reconnect with the last id you received. Once the run has ended and you have every event the stream ends, and a reconnect answers 204. With `Accept: application/json` the events persisted so far come as one list.
         */
        get: operations["streamAnalysisEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask about a report
         * @description Answers from the report of `date` (today by default) only, citing the controls and evidence each statement rests on. With `Accept: text/event-stream` the answer comes as events (`answer.delta` pieces, `citations`, `done`); they are persisted first, and `Content-Location` names where to resume them with `Last-Event-ID`. Over-long messages or histories answer 400, an over-large body 413. The report of `date` is found as `GET /api/report/{date}` finds it: a day that is not a calendar day answers 400, a day in the future or a past day without a report 404 `report_not_found`.
         */
        post: operations["chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/messages/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resume an answer stream
         * @description The persisted events of an answer after `Last-Event-ID`, as server-sent events; 204 once the client has them all.
         */
        get: operations["streamChatAnswer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send MCP messages
         * @description Takes the JSON-RPC messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, notifications) and answers as JSON, never as an event stream: a request gets its response, a message without a request (a notification) 202 without a body. The tools are the chat’s question kinds; a call is checked against today’s report (an unknown control, owner or subject is declined, never guessed) and answered with the chat’s Markdown and citations. Stateless: every request stands alone, whichever instance serves it, and no `Mcp-Session-Id` is given. Malformed JSON answers 400, an over-large body 413, a protocol version the server does not speak 400.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook subscriptions */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe an endpoint to events
         * @description At most 25 subscriptions. The URL is checked now (its name resolved) and again at every delivery. The answer carries the URL in full and the signing secret, once: both are stored encrypted, and listings show the URL shortened.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one webhook subscription */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Nothing more is sent to it, retries of earlier deliveries included.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.ping` delivery to the endpoint, signed like every other; see its attempts in the deliveries. A subscription may have 30 pings and redeliveries (counted together) in any 10 minutes; past that, 429 with `Retry-After`.
         */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a webhook’s deliveries */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Queues the same message again, under the same `webhook-id`, whatever became of it. A subscription may have 30 pings and redeliveries (counted together) in any 10 minutes; past that, 429 with `Retry-After`.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current settings
         * @description The newest saved version of the settings, or the defaults (version null: the catalog’s owners and freshness, the default due days, SOC 2 Security, all of ISO Annex A, the NIST moderate baseline) before anything was saved.
         */
        get: operations["getSettings"];
        /**
         * Save a new version of the settings
         * @description Stores the settings as the next version, with the caller and the reason. The next report (or analysis) uses it; reports already made keep the version they named. Owners must be e-mail addresses, controls and families must be the catalog’s, excluded requirements must be the framework’s; anything else answers 400 naming each mistake. Two people saving from the same version: the first is stored, the second answers 409 `settings_changed` and stores nothing.
         */
        put: operations["saveSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every saved version of the settings
         * @description Who saved each version, when and why, newest first, paged. One `list` of the store per page.
         */
        get: operations["listSettingsVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settings/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One saved version of the settings
         * @description The settings as they were saved in that version: what a report naming it was evaluated with.
         */
        get: operations["getSettingsVersion"];
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
            code: "invalid_request" | "malformed_json" | "unauthenticated" | "invalid_token" | "token_expired" | "not_found" | "doc_not_found" | "evidence_not_found" | "control_not_found" | "framework_not_found" | "settings_version_not_found" | "exception_not_found" | "report_not_found" | "analysis_not_found" | "chat_message_not_found" | "submission_not_found" | "connector_not_found" | "audit_package_not_found" | "audit_package_not_ready" | "range_not_satisfiable" | "connector_run_not_found" | "run_not_found" | "drop_not_found" | "population_not_found" | "audit_request_not_found" | "method_not_allowed" | "exception_revoked" | "exception_not_pending" | "self_review" | "submission_already_reviewed" | "webhook_not_found" | "delivery_not_found" | "webhook_target_refused" | "too_many_exceptions" | "too_many_webhooks" | "webhook_rate_limited" | "evidence_conflict" | "idempotency_key_reused" | "attachment_tampered" | "analysis_ended" | "report_immutable" | "settings_changed" | "connector_not_ready" | "connector_busy" | "run_ended" | "drop_acknowledged" | "run_full" | "audit_request_changed" | "audit_request_status" | "audit_request_limit" | "payload_too_large" | "evidence_too_large" | "scan_too_large" | "unsupported_media_type" | "attachment_too_large" | "too_many_form_parts" | "attachment_type_not_allowed" | "queue_unavailable" | "evidence_in_flight" | "auth_unavailable" | "worker_lost" | "internal";
            /** @description Identifies the request in the server logs. */
            requestId: string;
            /** @description For `invalid_request`: each way the request failed validation. */
            errors?: components["schemas"]["RequestError"][];
        };
        /** @description Who did it, from their ID token; `uid` is `anonymous` in public mode without one. */
        Actor: {
            uid: string;
            email?: string;
            name?: string;
        };
        RequestError: {
            /** @enum {string} */
            in: "path" | "query" | "header" | "body";
            /** @description The parameter, for path, query and header errors. */
            name?: string;
            /** @description JSON Pointer into the body, for body errors. */
            pointer?: string;
            /** @description For a body that is a file (an OCSF import): the line the value at fault starts on. */
            line?: number;
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
        /**
         * @description `passing`: fresh evidence satisfies every check. `failing`: a check fails on fresh evidence. `stale`: the evidence is older than the control’s freshness window or has expired. `missing`: a required kind of evidence has never been received. `not_applicable`: a current attestation scopes the control out.
         * @enum {string}
         */
        ControlStatus: "passing" | "failing" | "stale" | "missing" | "not_applicable";
        /** @enum {string} */
        Severity: "critical" | "high" | "medium" | "low";
        Finding: {
            /**
             * @description `error`: the check could not be evaluated on this evidence (for example a field it reads is absent). `info`: shown, deciding nothing (a scanner finding marked MANUAL or muted).
             * @enum {string}
             */
            outcome: "pass" | "fail" | "stale" | "missing" | "error" | "not_applicable" | "info";
            /** @description The id of the check (a catalog check, or a scanner’s), for check outcomes. */
            check?: string;
            /** @description The evidence kind the finding is about. */
            kind?: string;
            /** @description The subject of the evidence, when the finding is about one subject. */
            subject?: string;
            message: string;
            /** @description Ids of the evidence items the finding rests on. */
            evidence: string[];
            completeness?: components["schemas"]["CompletenessIssue"];
            /** @description On a `fail` or `error` an exception covers: the exception, and the day the finding counts again. */
            accepted?: {
                exception: string;
                /** Format: date */
                expiresOn: string;
            };
        };
        /** @description On a `fail` that is about the population rather than a subject (docs/collectors.md § Completeness): why the control cannot pass on the population it has. */
        CompletenessIssue: {
            /**
             * @description `run_incomplete`: the newest run of a source the control reads ended incomplete (abandoned, counts that disagree, cancelled). `run_outdated`: the newest complete run of a source is older than the control’s freshness window for the kind. `population_dropped`: the newest complete population shrank past the threshold since the one before, and nobody has acknowledged it. `reconciliation`: one population does not cover another as the control declares.
             * @enum {string}
             */
            reason: "run_incomplete" | "run_outdated" | "population_dropped" | "reconciliation";
            /** @description The source whose run the finding is about. */
            source?: string;
            /** @description The run the finding is about. */
            runId?: string;
            /** @description The id of the control’s reconciliation that failed. */
            reconciliation?: string;
            /** @description For a reconciliation: the subjects of the population no subject of the other covers. */
            uncovered?: {
                count: number;
                /** @description The first 20, in subject order. */
                subjects: string[];
            };
        };
        /** @description The population a control’s checks of one evidence kind ran on: the subjects whose newest evidence was fresh and still in its source’s population, counted and hashed, and the complete collection runs that define that population. */
        PopulationUsed: {
            kind: string;
            /** @description Subjects the checks ran on. */
            count: number;
            /** @description SHA-256 (hex) over those subjects sorted by their UTF-8 bytes, each followed by a line feed, as the sampling method publishes it (docs/sampling.md): `LC_ALL=C sort -u | sha256sum` re-derives it. */
            sha256: string;
            /** @description Per source with a complete run of the kind: its newest complete run before the report’s cut-off. */
            runs: components["schemas"]["PopulationRun"][];
        };
        PopulationRun: {
            source: string;
            runId: string;
            /** Format: date-time */
            completedAt: string;
            /** @description The subjects the run reported. */
            count: number;
            /** @description As `PopulationUsed.sha256`, over the run’s subjects. */
            sha256: string;
        };
        ControlResult: {
            id: string;
            title: string;
            family: string;
            severity: components["schemas"]["Severity"];
            status: components["schemas"]["ControlStatus"];
            findings: components["schemas"]["Finding"][];
            /** @description Every evidence item the result considered. */
            evidence: string[];
            /** @description Who answers for the control, in one line: the first of `owners`’ e-mail address, or the catalog’s role label when the settings name nobody. */
            owner?: string;
            /** @description The people the settings name for the control (its own, else its family’s); absent when none. */
            owners?: components["schemas"]["Owner"][];
            /**
             * Format: date
             * @description While failing, stale or missing evidence: the first day of the current run of those statuses, carried from report to report.
             */
            openSince?: string;
            /**
             * Format: date
             * @description While open: `openSince` plus the days the control’s severity allows.
             */
            dueDate?: string;
            /** @description While open: whether the report’s day is after `dueDate`. */
            overdue?: boolean;
            /** @description True when the control is failing only on findings exceptions cover (and no evidence is stale or missing): it then counts for neither the score nor readiness, and has no due date, until the exception expires. */
            riskAccepted?: boolean;
            /** @description For each evidence kind of subjects the control’s checks read (not attestations or scanner findings), in kind order: the population they ran on. Absent when the control reads none. */
            populations?: components["schemas"]["PopulationUsed"][];
            /** @description The fresh evidence the control relies on that ages on its own and goes stale within 180 days, soonest first, at most 100. Evidence renewed in the last day (a collector’s daily snapshot) is left out: its next collection renews it. Absent when there is none. */
            expiring?: components["schemas"]["ExpiringItem"][];
        };
        ExpiringItem: {
            kind: string;
            subject: string;
            evidenceId: string;
            /**
             * Format: date-time
             * @description The instant the item no longer counts (its age passes the control’s window for the kind, or it expires), unless newer evidence of the subject arrives first.
             */
            staleAt: string;
        };
        StatusCounts: {
            passing: number;
            failing: number;
            stale: number;
            missing: number;
            not_applicable: number;
        };
        ReportSummary: {
            /** @description Severity-weighted share of applicable controls that pass, 0–100 with one decimal. Weights: critical 10, high 5, medium 3, low 1; not-applicable and risk-accepted controls are left out. */
            score: number;
            counts: components["schemas"]["StatusCounts"];
            /** @description How many controls were evaluated. */
            controls: number;
            /** @description Controls failing, stale or missing evidence past their due date. */
            overdue?: number;
            /** @description Controls failing only on accepted findings. */
            riskAccepted?: number;
            /** @description Each framework’s share of requirements met; absent from reports made before API 1.4.0. */
            readiness?: components["schemas"]["ReadinessShares"];
        };
        StatusChange: {
            id: string;
            from: components["schemas"]["ControlStatus"];
            to: components["schemas"]["ControlStatus"];
        };
        ReportDiff: {
            /**
             * Format: date
             * @description The report compared against: the latest one before this date, or null for the first report.
             */
            previousDate: string | null;
            /** @description Controls failing now that were not failing before. */
            newlyFailing: string[];
            /** @description Controls passing now that were failing before. */
            fixed: string[];
            /** @description Controls stale now that were not stale before. */
            newlyStale: string[];
            /** @description Every control whose status changed. */
            changes: components["schemas"]["StatusChange"][];
        };
        Report: {
            /**
             * Format: date
             * @description The day assessed, in `timeZone`.
             */
            date: string;
            /** @description The IANA time zone that defines the day. */
            timeZone: string;
            /**
             * Format: date-time
             * @description Evidence collected after this instant was not considered; freshness is measured to it.
             */
            asOf: string;
            /** Format: date-time */
            generatedAt: string;
            /** @description The evaluation run that produced the report. */
            runId: string;
            /** @description Fingerprint of the control catalog the report was evaluated with. */
            catalogVersion: string;
            /** @description The version of the organisation’s settings the report was evaluated with (`GET /api/settings/versions/{version}`); null for the defaults. Absent from reports made before API 1.12.0. */
            settingsVersion?: number | null;
            summary: components["schemas"]["ReportSummary"];
            /** @description One result per control, in id order. */
            controls: components["schemas"]["ControlResult"][];
            diff: components["schemas"]["ReportDiff"];
            /** @description The exceptions in force for the report’s day, whether or not a finding needed them. */
            exceptions?: components["schemas"]["AppliedException"][];
            /** @description Readiness per framework from the controls’ statuses (see the `frameworks` operations); absent from reports made before API 1.4.0. */
            frameworks?: components["schemas"]["FrameworkReadiness"][];
            awaitingReview?: components["schemas"]["AwaitingReview"];
        };
        /** @description Present only when `SUBMISSION_REVIEW` is `required`: the submissions whose attestations the report did not count because no one had accepted them by its `asOf` (rejected ones never count, and are not listed). Their controls rest on no attestation for those subjects until then. */
        AwaitingReview: {
            /** @description How many submissions await review. */
            count: number;
            /** @description Oldest first, at most 50. */
            submissions: {
                submissionId: string;
                evidenceId: string;
                controlIds: string[];
                subject: string;
                /** Format: date-time */
                submittedAt: string;
            }[];
        };
        AppliedException: {
            id: string;
            controlId: string;
            subject: string | null;
            /** Format: date */
            expiresOn: string;
            approver: components["schemas"]["Actor"];
            /** @description Who requested it; absent from reports made before requests and approvals were separate. */
            requestedBy?: components["schemas"]["Actor"];
            /** @description Whether the approver is known to be another person than the requester (false in public mode, where callers need not sign in, and for exceptions recorded before requests were reviewed); absent from reports made before. */
            independent?: boolean;
        };
        ReportListEntry: {
            /** Format: date */
            date: string;
            /** Format: date-time */
            generatedAt: string;
            summary: components["schemas"]["ReportSummary"];
        };
        ReportList: {
            timeZone: string;
            /**
             * Format: date
             * @description Today’s date in `timeZone`.
             */
            today: string;
            /** @description Every stored report, oldest first. */
            reports: components["schemas"]["ReportListEntry"][];
        };
        ReportVersion: {
            /** @description The version’s number within its day: 1 is the first report. */
            version: number;
            /** @description Whether this is the version `GET /api/report/{date}` serves now. */
            current: boolean;
            /** Format: date-time */
            generatedAt: string;
            /** @description The run that produced it: the daily job’s, or the analysis’s id. */
            runId: string;
            /**
             * @description `daily`: the daily job made it (on its schedule, on the first read of the day, or by a development trigger: see `trigger`). `analysis`: an analysis published it as today’s report (its id is `runId`).
             * @enum {string}
             */
            publishedBy: "daily" | "analysis";
            /** @description For the daily job: what ran it (`schedule`, `first-read`, `dev-trigger`, `seed` …). Absent for reports stored before API 1.12.0. */
            trigger?: string;
            /** @description For an analysis: who started it. */
            startedBy?: components["schemas"]["Actor"];
            summary: components["schemas"]["ReportSummary"];
            links: {
                /** @description Where this version is read. */
                self: string;
            };
        };
        ReportVersionPage: {
            /** @description Oldest first; the current version last. */
            items: components["schemas"]["ReportVersion"][];
            /** @description True when more versions follow this page. */
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        /** @description An OSCAL 1.0.6 Plan of Action and Milestones document (https://pages.nist.gov/OSCAL/). */
        OscalPoam: {
            "plan-of-action-and-milestones": Record<string, never>;
        };
        /** @description An OSCAL 1.0.6 Assessment Results document (https://pages.nist.gov/OSCAL/): each control result is a finding with its observations and the evidence they rest on. */
        OscalAssessmentResults: {
            "assessment-results": Record<string, never>;
        };
        FrameworkMappings: {
            /** @description AICPA Trust Services Criteria (2017) ids, e.g. `CC6.1`. */
            soc2: string[];
            /** @description ISO/IEC 27001:2022 Annex A ids, e.g. `A.5.17`. */
            iso27001: string[];
            /** @description NIST SP 800-53 rev5 ids, e.g. `ia-2.1`. */
            nist80053: string[];
        };
        EvidenceRequirement: {
            kind: components["schemas"]["EvidenceKind"];
            /** @description Evidence older than this many days is stale. */
            freshnessDays: number;
        };
        Check: {
            id: string;
            kind: components["schemas"]["EvidenceKind"];
            /**
             * @description `each`: per subject’s newest item; `all`: once over them all.
             * @enum {string}
             */
            mode: "each" | "all";
            /** @description The CEL expression that must be true. */
            expression: string;
            /** @description For `each`: a CEL filter choosing the items the check applies to. */
            where?: string;
            /** @description Message template when the check holds. */
            pass: string;
            /** @description Message template when it does not. */
            fail: string;
        };
        /** @description One population must cover another (docs/collectors.md § Completeness): every subject of `population` needs a subject of `coveredBy` whose `key` equals `expect` filled from the population’s item. Only fresh, current evidence counts on either side. A control whose reconciliation leaves subjects uncovered fails, naming them. */
        Reconciliation: {
            id: string;
            /** @description What the reconciliation asks, in words. */
            description: string;
            population: components["schemas"]["ReconciledSide"];
            /** @description The population that must cover, with the `key` each of its items is matched by. */
            coveredBy: components["schemas"]["ReconciledSide"];
            /** @description The key a covering item must have, as a template over the population’s item: `{{subject}}`, `{{data.field}}`, or text around them (`{{subject}}/security-awareness`). */
            expect: string;
            /** @description Evidence older than this many days counts on neither side. */
            freshnessDays: number;
        };
        ReconciledSide: {
            kind: components["schemas"]["EvidenceKind"];
            /** @description A CEL filter over `item` and `data` choosing the subjects that count. */
            where?: string;
            /** @description On `coveredBy`: what an item is matched by, `subject` or `data.<field>`. */
            key?: string;
        };
        /** @description The scanner checks whose findings (`scanner.finding` evidence) count for the control: a FAIL fails it for that resource, a PASS passes it, MANUAL and muted findings are shown and decide nothing. */
        ScannerFeed: {
            /** @description Frameworks whose scanner mappings the control follows: a check mapped under one of its requirements there feeds it, and so does a finding that names such a requirement itself. */
            frameworks: ("soc2" | "iso27001" | "nist80053")[];
            /** @description Every check that feeds the control, by id. */
            checks: {
                id: string;
                /** @description The control names the check itself. */
                named: boolean;
                /** @description The control’s requirements the scanner’s mapping puts the check under. */
                requirements: {
                    /** @enum {string} */
                    framework: "soc2" | "iso27001" | "nist80053";
                    id: string;
                }[];
            }[];
            /** @description Findings older than this many days are stale. */
            freshnessDays: number;
        };
        /** @description The control’s result in the newest stored report. */
        LatestStatus: {
            /** Format: date */
            date: string;
            status: components["schemas"]["ControlStatus"];
            /**
             * Format: date
             * @description While failing, stale or missing: when it is due fixed.
             */
            dueDate?: string;
            /** @description While failing, stale or missing: whether it is past `dueDate`. */
            overdue?: boolean;
        };
        ControlSummary: {
            id: string;
            title: string;
            family: string;
            severity: components["schemas"]["Severity"];
            frameworks: components["schemas"]["FrameworkMappings"];
            /** @description True when checks evaluate it; false when it rests on attestations. */
            automated: boolean;
            /** @description Who answers for it, as the newest report names them (the settings’ first owner’s address, else the catalog’s role label); the catalog’s before any report. */
            owner: string;
            /** @description The people the settings name for it, as of the newest report; absent when none. */
            owners?: components["schemas"]["Owner"][];
            /** @description Null until a report exists. */
            latest: components["schemas"]["LatestStatus"] | null;
        };
        ControlList: {
            catalogVersion: string;
            controls: components["schemas"]["ControlSummary"][];
        };
        ControlDetail: {
            id: string;
            title: string;
            family: string;
            severity: components["schemas"]["Severity"];
            frameworks: components["schemas"]["FrameworkMappings"];
            /** @description True when checks evaluate it; false when it rests on attestations. */
            automated: boolean;
            /** @description Who answers for it, as the newest report names them (the settings’ first owner’s address, else the catalog’s role label); the catalog’s before any report. */
            owner: string;
            /** @description The people the settings name for it, as of the newest report; absent when none. */
            owners?: components["schemas"]["Owner"][];
            /** @description Null until a report exists. */
            latest: components["schemas"]["LatestStatus"] | null;
            /** @description Sanitised HTML. */
            objective: string;
            /** @description Sanitised HTML. */
            guidance: string;
            evidence: components["schemas"]["EvidenceRequirement"][];
            checks: components["schemas"]["Check"][];
            scanner: components["schemas"]["ScannerFeed"];
            /** @description The populations the control declares must cover one another; empty when it declares none. */
            reconciliations: components["schemas"]["Reconciliation"][];
            /** @description The full result (findings, evidence) in the newest report; null until a report exists. */
            result: components["schemas"]["ControlResult"] | null;
        };
        /** @description An OSCAL 1.0.6 component definition document (https://pages.nist.gov/OSCAL/). */
        OscalComponentDefinition: {
            "component-definition": Record<string, never>;
        };
        /** @description The control in one report on one side of a change. */
        HistorySide: {
            /** Format: date */
            date: string;
            status: components["schemas"]["ControlStatus"];
            /** @description The findings that were not a pass. */
            findings: components["schemas"]["Finding"][];
        };
        HistoryChange: {
            /**
             * Format: date
             * @description The first day of the new status.
             */
            date: string;
            /** @description The report before the change; null when none before it assessed the control. */
            from: components["schemas"]["HistorySide"] | null;
            to: components["schemas"]["HistorySide"];
            /** @description Evidence items the result considered after the change and not before, and the other way round. */
            evidence: {
                added: string[];
                removed: string[];
            };
        };
        ControlHistory: {
            controlId: string;
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            /** @description Every day of the period, oldest first; `status` is null on a day without a report. */
            days: {
                /** Format: date */
                date: string;
                status: components["schemas"]["ControlStatus"] | null;
            }[];
            summary: {
                /** @description Days whose report assessed the control. */
                daysWithReport: number;
                daysPassing: number;
                /** @description Days passing over days assessed and applicable; null when there were none. */
                passingShare: number | null;
                /** @description Consecutive reports failing, stale or missing evidence (days without a report do not break it). */
                longestNonPassingStreak: {
                    /** @description Calendar days from its first report to its last. */
                    days: number;
                    /** Format: date */
                    from: string;
                    /** Format: date */
                    to: string;
                } | null;
                /** @description Non-passing runs that a passing report ended. */
                fixes: number;
                /** @description Mean days from a run’s first day to the passing report that ended it; null without a fix. */
                meanTimeToFixDays: number | null;
            };
            /** @description Every change of status, oldest first. */
            changes: components["schemas"]["HistoryChange"][];
        };
        /** @description How often the control operates, derived from the catalog, and the sample sizes suggested for it. */
        SampleSuggestion: {
            /** @enum {string} */
            frequency: "annual" | "quarterly" | "monthly" | "weekly" | "daily" | "many-times-a-day";
            minimum: number;
            maximum: number;
        };
        /** @description A reproducible sample of the days in the period that have a report, by the published method (docs/sampling.md): each day `YYYY-MM-DD` ranked by the SHA-256 of `<seed>\n<day>` as lowercase hex, ascending; the first `size` days. */
        ControlSample: {
            controlId: string;
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            /** @description The seed the days were ranked with. */
            seed: string;
            /** @description False when the request gave none and the seed is the period itself, `<from>..<to>`. */
            seedChosen: boolean;
            /** @description The size asked for, else the suggestion’s upper end. */
            size: number;
            suggestion: components["schemas"]["SampleSuggestion"];
            /** @description The days of the period that have a report. */
            population: number;
            /** @description The sampled days in rank order: `size` of them, or every day when the population is smaller. */
            sample: {
                rank: number;
                /** Format: date */
                date: string;
                /** @description SHA-256 of `<seed>\n<date>`. */
                digest: string;
                /** @description The control’s status that day; null when that day’s report did not assess it. */
                status: components["schemas"]["ControlStatus"] | null;
                /** @description The evidence items its result considered. */
                evidence: string[];
            }[];
        };
        /** @description A reproducible sample of the subjects of a control’s population on a day, by the published method (docs/sampling.md): each subject ranked by the SHA-256 of `<seed>\n<subject>` as lowercase hex, ascending; the first `size` subjects. Anyone holding the population’s CSV re-derives it. */
        ControlSubjectSample: {
            controlId: string;
            /** Format: date */
            date: string;
            kind: components["schemas"]["EvidenceKind"];
            /** @description The run id of the report version whose population was sampled. */
            runId: string;
            /** @description How many subjects the population has. */
            count: number;
            /** @description The population’s SHA-256, as its page gives it. */
            sha256: string;
            /** @description The seed the subjects were ranked with. */
            seed: string;
            /** @description False when the request gave none and the seed is `<date>/<kind>`, which the organisation can foresee. */
            seedChosen: boolean;
            /** @description The size asked for, else the suggestion’s upper end. */
            size: number;
            suggestion: components["schemas"]["SampleSuggestion"];
            /** @description The sampled subjects in rank order: `size` of them, or every subject when the population is smaller. */
            sample: {
                rank: number;
                subject: string;
                /** @description SHA-256 of `<seed>\n<subject>`. */
                digest: string;
                /** @enum {string} */
                outcome: "pass" | "fail" | "error" | "out_of_scope";
                /** @description The evidence item its outcome rests on. */
                evidenceId: string;
            }[];
        };
        /** @description A page of the subjects of one evidence kind a control’s checks ran on in a day’s report, in subject order, each with its outcome: the population an auditor samples subjects from (docs/sampling.md). */
        ControlPopulationPage: {
            controlId: string;
            /** Format: date */
            date: string;
            kind: components["schemas"]["EvidenceKind"];
            /** @description The run id of the report version the population belongs to: the day’s current report on the first page, and the same version on every page a cursor continues, even if the report is republished meanwhile. */
            runId: string;
            /** @description How many subjects the whole population has. */
            count: number;
            /** @description SHA-256 (hex) of all its subjects as the sampling method publishes it (docs/sampling.md): sorted by their UTF-8 bytes, each followed by a line feed (`LC_ALL=C sort -u | sha256sum`). */
            sha256: string;
            /** @description This page’s subjects, in that order. */
            subjects: {
                subject: string;
                /**
                 * @description `error`: its evidence could not be evaluated; `out_of_scope`: the checks’ scope left it out.
                 * @enum {string}
                 */
                outcome: "pass" | "fail" | "error" | "out_of_scope";
                /** @description The evidence item its outcome rests on. */
                evidenceId: string;
            }[];
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        /** @enum {string} */
        FrameworkId: "soc2" | "iso27001" | "nist80053";
        /**
         * @description `met`: every applicable control mapped to it passes. `not_met`: one of them fails. `unproven`: none fails, but one has stale or missing evidence, so it cannot be shown met; it counts against the share. `not_applicable`: every control mapped to it is scoped out; it is left out of the share. An in-scope requirement no control covers is `not_met`, with no controls.
         * @enum {string}
         */
        RequirementStatus: "met" | "not_met" | "unproven" | "not_applicable";
        RequirementCounts: {
            met: number;
            not_met: number;
            unproven: number;
            not_applicable: number;
        };
        RequirementResult: {
            id: string;
            status: components["schemas"]["RequirementStatus"];
            /** @description The ids of the controls mapped to it. */
            controls: string[];
        };
        /** @description One framework in a report. */
        FrameworkReadiness: {
            framework: components["schemas"]["FrameworkId"];
            /** @description The framework’s name and edition. */
            name: string;
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            share: number | null;
            counts: components["schemas"]["RequirementCounts"];
            /** @description In-scope requirements at least one control maps to (before API 1.12.0: of all requirements). */
            covered: number;
            /** @description Requirements in the framework’s reference list (for NIST, the moderate baseline). */
            total: number;
            /** @description The scope in words: the SOC 2 categories, the ISO exclusions, the NIST baseline. */
            scope?: string;
            /** @description Requirements in scope, covered or not: what the share is over, less those scoped out by exceptions. */
            inScope?: number;
            /** @description Requirements the scope leaves out, in the framework’s order, each with why. */
            outOfScope?: {
                id: string;
                reason: string;
            }[];
            /** @description Every in-scope requirement, in the framework’s order (before API 1.12.0: every covered one). One no control covers is `not_met` with no controls. */
            requirements: components["schemas"]["RequirementResult"][];
            /** @description In-scope requirements no control maps to; they count as not met (before API 1.12.0: left out). */
            gaps: string[];
        };
        /** @description Each framework’s share of requirements met, for the trend. */
        ReadinessShares: {
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            soc2?: number | null;
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            iso27001?: number | null;
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            nist80053?: number | null;
        };
        FrameworkSummary: {
            framework: components["schemas"]["FrameworkId"];
            /** @description The framework’s name and edition. */
            name: string;
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            share: number | null;
            counts: components["schemas"]["RequirementCounts"];
            /** @description In-scope requirements at least one control maps to (before API 1.12.0: of all requirements). */
            covered: number;
            /** @description Requirements in the framework’s reference list (for NIST, the moderate baseline). */
            total: number;
            /** @description The scope in words: the SOC 2 categories, the ISO exclusions, the NIST baseline. */
            scope: string;
            /** @description Requirements in scope, covered or not: what the share is over, less those scoped out by exceptions. */
            inScope: number;
            /** @description Requirements the scope leaves out, in the framework’s order, each with why. */
            outOfScope: {
                id: string;
                reason: string;
            }[];
            /** @description How many in-scope requirements no control maps to. */
            gaps: number;
        };
        FrameworkList: {
            /**
             * Format: date
             * @description The report the readiness comes from.
             */
            date: string;
            frameworks: components["schemas"]["FrameworkSummary"][];
        };
        FrameworkDetail: {
            /**
             * Format: date
             * @description The report the readiness comes from.
             */
            date: string;
            framework: components["schemas"]["FrameworkId"];
            /** @description The framework’s name and edition. */
            name: string;
            /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
            share: number | null;
            counts: components["schemas"]["RequirementCounts"];
            /** @description In-scope requirements at least one control maps to (before API 1.12.0: of all requirements). */
            covered: number;
            /** @description Requirements in the framework’s reference list (for NIST, the moderate baseline). */
            total: number;
            /** @description The scope in words: the SOC 2 categories, the ISO exclusions, the NIST baseline. */
            scope: string;
            /** @description Requirements in scope, covered or not: what the share is over, less those scoped out by exceptions. */
            inScope: number;
            /** @description Requirements the scope leaves out, in the framework’s order, each with why. */
            outOfScope: {
                id: string;
                reason: string;
            }[];
            /** @description Every in-scope requirement, in the framework’s order, with its controls’ statuses; one no control covers is `not_met` with no controls. */
            requirements: {
                id: string;
                /** @description NIST’s control title; null where the text is licensed. */
                title: string | null;
                status: components["schemas"]["RequirementStatus"];
                controls: {
                    id: string;
                    title: string;
                    status: components["schemas"]["ControlStatus"];
                }[];
            }[];
            /** @description In-scope requirements no control maps to, in the framework’s order; each counts as not met. */
            gaps: {
                id: string;
                title: string | null;
            }[];
            /** @description The share met on each day with a report in the year up to `date`, oldest first; days whose report predates readiness are left out. */
            trend: {
                /** Format: date */
                date: string;
                /** @description Requirements met over requirements that apply (met, not met or unproven), 0–100 with one decimal; null when none applies. */
                share: number | null;
            }[];
        };
        ExceptionInput: {
            controlId: string;
            /** @description The subject whose failing finding is accepted, as the control’s findings name it; absent or null accepts the whole control. */
            subject?: string | null;
            /** @description Why the risk is accepted. */
            justification: string;
            /**
             * Format: date
             * @description The first day (report time zone) the finding counts again: after today and at most 366 days ahead.
             */
            expiresOn: string;
        };
        Exception: {
            id: string;
            controlId: string;
            /** @description Null when the whole control is accepted. */
            subject: string | null;
            justification: string;
            /** Format: date */
            expiresOn: string;
            /**
             * Format: date-time
             * @description When it was requested.
             */
            createdAt: string;
            /** @description Who requested it. Of an exception recorded before requests were reviewed, its approver. */
            requestedBy: components["schemas"]["Actor"];
            /**
             * @deprecated
             * @description Deprecated: read `review` (who approved or refused it, and whether independently) and `requestedBy`. The approver once approved; until then, and after a refusal, the requester, who is who this field named before requests were reviewed.
             */
            approver: components["schemas"]["Actor"];
            /**
             * @description As of now: `requested` until it is approved or refused, `active` once approved, `refused` once refused, `expired` from its expiry day (approved or never reviewed), `revoked` once revoked (a request revoked before its review is withdrawn).
             * @enum {string}
             */
            state: "requested" | "active" | "refused" | "expired" | "revoked";
            /** @description The approval or refusal; null while it awaits one. */
            review: {
                /** @enum {string} */
                decision: "approved" | "refused";
                /** Format: date-time */
                at: string;
                by: components["schemas"]["Actor"];
                /** @description The approver’s comment, or why it was refused. */
                comment: string | null;
                /** @description Whether the reviewer is known to be another person than the requester. */
                independent: boolean;
                /** @description Why the review is not independent, in a sentence; null when it is. Three cases: the server runs in public mode, where callers need not sign in; the request was made without signing in; or the exception was recorded before requests and approvals were separate (its requester approved it at once). */
                caveat: string | null;
            } | null;
            revoked: {
                /** Format: date-time */
                at: string;
                by: components["schemas"]["Actor"];
                reason: string | null;
            } | null;
        };
        ExceptionList: {
            /**
             * Format: date
             * @description Today in the report time zone, which states are judged by.
             */
            today: string;
            /** @description Soonest expiry first; the same day, by id. */
            items: components["schemas"]["Exception"][];
            /** @description True when at least one more exception matching the filters follows this page. */
            hasMore: boolean;
            /** @description Pass as `cursor` to continue. Present when `hasMore` is true; also present, with `hasMore` false and a page that may be short, when a listing of ended or all exceptions of one control reached the bound of names one request examines before the page was full. Absent when the listing is complete. */
            nextCursor?: string;
        };
        Approval: {
            comment?: string;
        };
        Refusal: {
            /** @description Why the risk is not accepted. */
            reason: string;
        };
        Revocation: {
            reason?: string;
        };
        AuditSigningKey: {
            /** @constant */
            algorithm: "Ed25519";
            /** @description The SHA-256 of the public key’s DER (SubjectPublicKeyInfo), as a package’s manifest names it. */
            fingerprint: string;
            /** @description The public key, SPKI PEM: `--key` of the verifier, or `openssl pkeyutl -verify -pubin -inkey`. */
            publicKey: string;
            /**
             * Format: date-time
             * @description When a package was first signed with it.
             */
            publishedAt: string;
        };
        /**
         * @example {
         *       "keys": [
         *         {
         *           "algorithm": "Ed25519",
         *           "fingerprint": "2ac70e28fa7585744fc6f570b5ab9734fe769e0a146e166f8e61ba1ffc665e9c",
         *           "publicKey": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA+4mLdTcXk/U4NdQIlH5IUJkxwcDSlD2xCdG3OvGVd7w=\n-----END PUBLIC KEY-----\n",
         *           "publishedAt": "2026-11-21T10:00:00.000Z"
         *         }
         *       ]
         *     }
         */
        AuditSigningKeys: {
            /** @description Every key an audit package was signed with, newest first; empty before the first package. */
            keys: components["schemas"]["AuditSigningKey"][];
        };
        AuditPackageRequest: {
            /** @description The first day of the period. */
            from: string;
            /** @description The last day of the period, today at the latest. */
            to: string;
        };
        /** @description The zip once built. */
        AuditPackageFile: {
            /** @description The name to save it under: `evident-audit-<from>-to-<to>.zip`. */
            name: string;
            /** @description Its length in bytes. */
            size: number;
            /** @description The SHA-256 of the whole zip, also its `ETag`. */
            sha256: string;
        };
        AuditPackage: {
            id: string;
            from: string;
            to: string;
            /**
             * @description `queued` until the job starts, `building` while it writes, then `ready` or `failed` (`problem` says why).
             * @enum {string}
             */
            state: "queued" | "building" | "ready" | "failed";
            progress: {
                /** @description Report days written so far. */
                reports: number;
                /** @description Report days in the period. */
                reportsTotal: number;
                /** @description Files written into the zip so far. */
                files: number;
                /** @description Bytes of the zip stored so far. */
                bytes: number;
            };
            file?: components["schemas"]["AuditPackageFile"];
            /** @description Why the build failed. */
            problem?: string;
            requestedBy: components["schemas"]["Actor"];
            /** Format: date-time */
            requestedAt: string;
            /**
             * Format: date-time
             * @description When it lapses and is deleted (`AUDIT_PACKAGE_DAYS` after it was asked for).
             */
            expiresAt: string;
            /** @description The newest persisted event; 0 before the first. */
            lastEventId: number;
            links: {
                self: string;
                events: string;
                download: string;
            };
        };
        AuditPackageList: {
            /** @description Packages not yet lapsed, newest first. */
            items: components["schemas"]["AuditPackage"][];
        };
        /** @description The job took the package and started writing it. */
        AuditPackageStartedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.started";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                reportsTotal: number;
            };
        };
        /** @description A part of the zip was stored: the totals so far. */
        AuditPackageProgressEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.progress";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /** @description Report days written so far. */
                reports: number;
                /** @description Report days in the period. */
                reportsTotal: number;
                /** @description Files written into the zip so far. */
                files: number;
                /** @description Bytes of the zip stored so far. */
                bytes: number;
            };
        };
        /** @description The zip is stored whole and can be downloaded. */
        AuditPackageCompletedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.completed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                file: components["schemas"]["AuditPackageFile"];
                /** @description How many stored parts hold the zip, in order. */
                parts: number;
                /** @description The length of every part but the last. */
                partBytes: number;
            };
        };
        /** @description The build failed; nothing of it can be downloaded. */
        AuditPackageFailedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.failed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                problem: string;
            };
        };
        /** @description One event of a package’s build, sent on the stream as `id`, `event: <type>` and `data: <this object as JSON>`. A build has exactly one terminal event: `run.completed` or `run.failed`. */
        AuditPackageEvent: components["schemas"]["AuditPackageStartedEvent"] | components["schemas"]["AuditPackageProgressEvent"] | components["schemas"]["AuditPackageCompletedEvent"] | components["schemas"]["AuditPackageFailedEvent"];
        AuditPackageEventList: {
            events: components["schemas"]["AuditPackageEvent"][];
            /** @description True once the build’s terminal event is in the list. */
            ended: boolean;
        };
        /** @description Calendar days, `from` on or before `to`, at most 366 days. */
        AuditPeriod: {
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
        };
        AuditRequestInput: {
            /** @description The auditor’s reference (`PBC-001`); Evident makes one when it is absent. */
            id?: string;
            /** @description A control of the catalog. */
            controlId: string;
            period: components["schemas"]["AuditPeriod"];
            /** @description What the auditor asks to see, in their words; line breaks allowed. */
            description: string;
        };
        AuditRequestEdit: {
            /** @description The `version` of the request this change was made on; another answers 409 `audit_request_changed`. */
            basedOn: number;
            period?: components["schemas"]["AuditPeriod"];
            /** @description What the auditor asks to see, in their words; line breaks allowed. */
            description?: string;
        };
        AuditAnswer: {
            /** @enum {string} */
            kind: "evidence" | "submission" | "population" | "sample";
            /** @description An evidence item’s id, a submission’s id, a population of the request’s control as `<date>/<evidence kind>` (`GET /api/controls/{id}/population?date=…&kind=…`), or a sample of its days as the query of `GET /api/controls/{id}/sample` (`from=…&to=…&size=…&seed=…`). */
            ref: string;
            /** @description What the answer shows, for the auditor. */
            note: string | null;
        };
        AuditAnswerChange: {
            /** @description The `version` of the request this change was made on; another answers 409 `audit_request_changed`. */
            basedOn: number;
            /** @description Answers to add; one already there (the same kind and ref) gets the new note. Each must exist. */
            add?: {
                /** @enum {string} */
                kind: "evidence" | "submission" | "population" | "sample";
                /** @description An evidence item’s id, a submission’s id, a population of the request’s control as `<date>/<evidence kind>` (`GET /api/controls/{id}/population?date=…&kind=…`), or a sample of its days as the query of `GET /api/controls/{id}/sample` (`from=…&to=…&size=…&seed=…`). */
                ref: string;
                note?: string;
            }[];
            remove?: {
                /** @enum {string} */
                kind: "evidence" | "submission" | "population" | "sample";
                /** @description An evidence item’s id, a submission’s id, a population of the request’s control as `<date>/<evidence kind>` (`GET /api/controls/{id}/population?date=…&kind=…`), or a sample of its days as the query of `GET /api/controls/{id}/sample` (`from=…&to=…&size=…&seed=…`). */
                ref: string;
            }[];
            comment?: string;
        };
        AuditDecision: {
            /** @description The `version` of the request this change was made on; another answers 409 `audit_request_changed`. */
            basedOn: number;
            comment?: string;
        };
        AuditDecisionWithComment: {
            /** @description The `version` of the request this change was made on; another answers 409 `audit_request_changed`. */
            basedOn: number;
            /** @description Why; required, and not blank. */
            comment: string;
        };
        AuditRequest: {
            id: string;
            controlId: string;
            period: components["schemas"]["AuditPeriod"];
            description: string;
            /**
             * @description `open` until it has answers, `answered` until the auditor accepts or returns it, `returned` until its answers change, `accepted` until someone reopens it.
             * @enum {string}
             */
            status: "open" | "answered" | "accepted" | "returned";
            answers: components["schemas"]["AuditAnswer"][];
            /** @description Every step, oldest first. */
            history: {
                /** @enum {string} */
                action: "created" | "edited" | "answered" | "accepted" | "returned" | "reopened";
                by: components["schemas"]["Actor"];
                /** Format: date-time */
                at: string;
                comment?: string;
            }[];
            /** @description One more at each step; send it as `basedOn` to change the request. */
            version: number;
        };
        AuditRequestList: {
            /** @description In id order. */
            items: components["schemas"]["AuditRequest"][];
            /** @description The most requests the list holds. */
            limit: number;
        };
        AuditRequestImport: {
            /** @description The ids of the requests made, in row order. */
            created: string[];
            /** @description The ids of requests already in the list that rows asked for again (the same id, or the same control, period and description). */
            unchanged: string[];
        };
        /** @description An account in the identity provider. */
        IdpUserData: {
            /** Format: email */
            email: string;
            /** @description False for suspended or deprovisioned accounts. */
            active: boolean;
            mfaEnabled: boolean;
            /** @description A FIDO2/WebAuthn or smart-card factor is enrolled. */
            phishingResistantMfa?: boolean;
            /** @description Holds an administrative role in the identity provider. */
            admin: boolean;
            /** @description Days since the last sign-in; absent if never signed in. */
            lastLoginDaysAgo?: number;
            /** @enum {string} */
            employmentStatus: "active" | "leaver" | "contractor";
        } & {
            [key: string]: unknown;
        };
        /** @description Tenant-wide settings of the identity provider. */
        IdpSettingsData: {
            mfaRequired: boolean;
            passwordMinLength: number;
            sessionTimeoutMinutes: number;
            /** @description Applications must sign in through the identity provider. */
            ssoEnforced: boolean;
            /** @description Failed attempts before lockout; 0 means never. */
            lockoutThreshold: number;
        } & {
            [key: string]: unknown;
        };
        /** @description A completed review of who has access to a system. */
        AccessReviewData: {
            /** Format: date */
            completedOn: string;
            reviewer: string;
            accountsReviewed: number;
            accessRevoked: number;
            /** @description Findings of the review not yet resolved. */
            exceptionsOpen: number;
        } & {
            [key: string]: unknown;
        };
        /** @description Protection rules on a source repository's default branch. */
        RepoBranchProtectionData: {
            defaultBranch: string;
            protected: boolean;
            requiredApprovals: number;
            dismissStaleApprovals?: boolean;
            requireStatusChecks: boolean;
            allowForcePush: boolean;
            enforceForAdmins: boolean;
            requireSignedCommits?: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description A member of the organisation that holds the source repositories on a code host. */
        RepoMemberData: {
            /** @description The member's account name on the code host. */
            login: string;
            /** @description An owner of the organisation, who can change its settings and every repository. */
            admin: boolean;
            /** @description Two-factor authentication is enabled on the account. */
            mfaEnabled: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description The delivery pipeline that deploys a service to production. */
        CiPipelineData: {
            deploysOnlyFromDefaultBranch: boolean;
            productionApprovalRequired: boolean;
            secretScanning: boolean;
            dependencyScanning: boolean;
            staticAnalysis: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description A scheduled backup of a data store. */
        BackupJobData: {
            lastSuccessHoursAgo: number;
            retentionDays: number;
            encrypted: boolean;
            /** @description Copies are kept in another region or account. */
            offsite: boolean;
            /** @description Copies cannot be deleted or altered before retention ends. */
            immutable?: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description A test restore of a backup into a scratch environment. */
        BackupRestoreTestData: {
            /** Format: date */
            testedOn: string;
            succeeded: boolean;
            restoreMinutes: number;
            /** @description The recovery time objective the restore must meet. */
            rtoMinutes: number;
            /** @description Restored data was checked for integrity. */
            dataVerified?: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description The open findings of the latest vulnerability scan of an asset. */
        VulnScanData: {
            scanner: string;
            /** @description The scan ran with credentials. */
            authenticated?: boolean;
            openCritical: number;
            openHigh: number;
            openMedium: number;
            /** @description Age of the oldest open critical finding; 0 when there is none. */
            oldestCriticalDays: number;
            /** @description Age of the oldest open high finding; 0 when there is none. */
            oldestHighDays: number;
        } & {
            [key: string]: unknown;
        };
        /** @description A laptop or workstation as the device-management tool last saw it. */
        EndpointDeviceData: {
            owner: string;
            /** @enum {string} */
            platform: "macos" | "windows" | "linux" | "chromeos";
            diskEncrypted: boolean;
            edrInstalled: boolean;
            edrHealthy: boolean;
            /** @description The OS version still receives security updates. */
            osSupported: boolean;
            /** @description Days since the newest OS security update was installed. */
            osPatchAgeDays?: number;
            screenLockMinutes: number;
            firewallEnabled: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description Where a system sends its audit logs, and how they are kept. */
        LoggingSinkData: {
            enabled: boolean;
            destination: string;
            retentionDays: number;
            /** @description Logs cannot be altered or deleted before retention ends. */
            immutable: boolean;
            includesAdminActivity: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description An alerting rule on security-relevant events. */
        MonitoringAlertPolicyData: {
            enabled: boolean;
            /** @enum {string} */
            category: "auth" | "privilege" | "data-exfiltration" | "availability" | "malware" | "other";
            /** @description Alerts page a person on call. */
            routesToOnCall: boolean;
            /** @description Days since the policy last fired or was tested; absent if never. */
            lastFiredDaysAgo?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description A key in the key-management service. */
        CryptoKeyData: {
            /** @enum {string} */
            purpose: "encryption" | "signing" | "mac";
            algorithm: string;
            rotationEnabled: boolean;
            rotationPeriodDays: number;
            /** @enum {string} */
            protection: "software" | "hsm" | "external";
        } & {
            [key: string]: unknown;
        };
        /** @description A data store (bucket, database or volume) and how it protects data at rest. */
        StorageBucketData: {
            encryptedAtRest: boolean;
            customerManagedKey?: boolean;
            publicAccess: boolean;
            /** @description Plain-text connections are refused. */
            tlsRequired: boolean;
            versioning?: boolean;
            /** @enum {string} */
            classification: "public" | "internal" | "confidential" | "restricted";
        } & {
            [key: string]: unknown;
        };
        /** @description A public HTTPS endpoint as a TLS scanner saw it. */
        TlsEndpointData: {
            /** @enum {string} */
            minTlsVersion: "1.0" | "1.1" | "1.2" | "1.3";
            hsts: boolean;
            /** @description Days until the certificate expires; negative once expired. */
            certificateDaysLeft: number;
            weakCiphers: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description A person's completion of a training course. */
        TrainingCompletionData: {
            /** @enum {string} */
            course: "security-awareness" | "secure-coding" | "privacy" | "incident-response";
            /** Format: date */
            completedOn: string;
            passed: boolean;
            score?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description Pre-employment screening of a person, and their acknowledgement of policies. */
        PeopleScreeningData: {
            /** @enum {string} */
            backgroundCheck: "clear" | "pending" | "adverse" | "not-required";
            policiesAcknowledged: boolean;
            ndaSigned: boolean;
            /** Format: date */
            startedOn: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A security review of a third-party vendor. */
        VendorAssessmentData: {
            /** @enum {string} */
            tier: "critical" | "high" | "moderate" | "low";
            /** Format: date */
            assessedOn: string;
            /** @enum {string} */
            residualRisk: "low" | "medium" | "high";
            /** @description A current SOC 2 type II report or ISO 27001 certificate is on file. */
            assuranceReportValid: boolean;
            /** @description A data processing agreement is signed. */
            dpaSigned: boolean;
        } & {
            [key: string]: unknown;
        };
        /** @description A tabletop or live exercise of the incident response plan. */
        IncidentExerciseData: {
            /** Format: date */
            exercisedOn: string;
            scenario: string;
            participants: number;
            lessonsRecorded: boolean;
            actionItemsOpen: number;
        } & {
            [key: string]: unknown;
        };
        /** @description One check of a cloud security scanner on one resource: an OCSF Detection Finding (Prowler’s `json-ocsf` output), imported with `POST /api/evidence/imports/ocsf` or `npm run collect -- --format ocsf`. A control follows the checks its catalog entry lists (`scanner` in the control). */
        ScannerFindingData: {
            /** @description The scanner’s check id (`metadata.event_code`). */
            check: string;
            /**
             * @description `MANUAL`: the scanner cannot decide; shown, but it decides nothing.
             * @enum {string}
             */
            status: "PASS" | "FAIL" | "MANUAL";
            /** @description Muted in the scanner (OCSF status Suppressed): shown, but it decides nothing. */
            muted: boolean;
            /** @description The OCSF severity, lower case: `informational` to `critical`. */
            severity: string;
            title?: string;
            /** @description What the scanner found (`status_detail`). */
            message?: string;
            remediation?: string;
            /** @description On the first resource’s item of a finding that names several resources: how many. This item carries the finding’s title, message and remediation for them all. */
            resourceCount?: number;
            /** @description On the other resources’ items of such a finding, instead of title, message and remediation: the id of the item that carries them. */
            textsIn?: string;
            /** @description The scanner, e.g. `Prowler`. */
            product: string;
            /** @description The cloud, e.g. `aws`. */
            provider?: string;
            /** @description The cloud account or subscription. */
            account?: string;
            region?: string;
            resourceType?: string;
            /** @description The finding’s `finding_info.uid`. */
            findingUid: string;
            /** @description Framework requirements the finding names itself, in the catalog’s notation. */
            requirements?: {
                soc2?: string[];
                iso27001?: string[];
                nist80053?: string[];
            };
        } & {
            [key: string]: unknown;
        };
        /** @description A statement by a person that a control operates (or does not apply), usually with attached files. Submissions become attestations; the controls it supports are in the item’s `controls`. */
        AttestationData: {
            statement: string;
            /** @description The listed controls do not apply (a scoping decision); the statement says why. */
            notApplicable?: boolean;
            /** @description Who made the statement. */
            submittedBy?: string;
            /** @description The submission this attestation came from, if any. */
            submissionId?: string;
        } & {
            [key: string]: unknown;
        };
        /** @enum {string} */
        EvidenceKind: "idp.user" | "idp.settings" | "access.review" | "repo.branch_protection" | "repo.member" | "ci.pipeline" | "backup.job" | "backup.restore_test" | "vuln.scan" | "endpoint.device" | "logging.sink" | "monitoring.alert_policy" | "crypto.key" | "storage.bucket" | "tls.endpoint" | "training.completion" | "people.screening" | "vendor.assessment" | "incident.exercise" | "scanner.finding" | "attestation";
        EvidenceInput: {
            /** @description Chosen by the collector to make a retry safe: the same id with the same content is accepted again and stored once; the same id with other content is a conflict. Generated when absent. */
            id?: string;
            /**
             * @description What the item is; decides the shape of `data`.
             * @enum {string}
             */
            kind: "idp.user" | "idp.settings" | "access.review" | "repo.branch_protection" | "repo.member" | "ci.pipeline" | "backup.job" | "backup.restore_test" | "vuln.scan" | "endpoint.device" | "logging.sink" | "monitoring.alert_policy" | "crypto.key" | "storage.bucket" | "tls.endpoint" | "training.completion" | "people.screening" | "vendor.assessment" | "incident.exercise" | "scanner.finding" | "attestation";
            /** @description The collector or person that produced it. Printable text: no control character or line break. */
            source: string;
            /** @description What the item is about: an account, repository, device… Printable text: no control character or line break. */
            subject: string;
            /**
             * Format: date-time
             * @description When the observation was made.
             */
            collectedAt: string;
            /**
             * Format: date
             * @description The day the evidence speaks for, when it differs from `collectedAt` (a review completed earlier); freshness is measured from it.
             */
            effectiveDate?: string;
            /**
             * Format: date-time
             * @description After this instant the item no longer counts (it is stale).
             */
            expiresAt?: string;
            /** @description For attestations: the controls the item supports. Ignored by checks of other kinds. */
            controls?: string[];
            /** @description The observation; its schema depends on `kind`. At most 64 KiB as JSON (413 `evidence_too_large` beyond) and 32 levels of nesting (400 beyond). */
            data: {
                [key: string]: unknown;
            };
        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
        EvidenceBatch: {
            items: components["schemas"]["EvidenceInput"][];
        };
        Attachment: {
            /** @description The file name as uploaded. */
            name: string;
            mediaType: string;
            size: number;
            /** @description Checked again on every download. */
            sha256: string;
            /** @description Where to download it. */
            href: string;
        };
        EvidenceItem: {
            /** @description Letters, digits, `_`, `:` and `-`; at most 128. */
            id: string;
            kind: components["schemas"]["EvidenceKind"];
            /** @description The collector or person that produced it. Printable text: no control character or line break. */
            source: string;
            /** @description What the item is about: an account, repository, device… Printable text: no control character or line break. */
            subject: string;
            /**
             * Format: date-time
             * @description When the observation was made.
             */
            collectedAt: string;
            /**
             * Format: date
             * @description The day the evidence speaks for, when it differs from `collectedAt` (a review completed earlier); freshness is measured from it.
             */
            effectiveDate?: string;
            /**
             * Format: date-time
             * @description After this instant the item no longer counts (it is stale).
             */
            expiresAt?: string;
            /** @description For attestations: the controls the item supports. Ignored by checks of other kinds. */
            controls?: string[];
            /**
             * Format: date-time
             * @description When Evident stored it.
             */
            receivedAt: string;
            /** @description The submission the item came from, for manual evidence. */
            submissionId?: string;
            /** @description The collection run the item was first sent under, when it was sent under one. */
            runId?: string;
            data: {
                [key: string]: unknown;
            };
            attachments: components["schemas"]["Attachment"][];
        };
        IngestResult: {
            /** @description One entry per item sent, in order. */
            items: {
                id: string;
                /**
                 * @description `existing`: a retry; nothing new was stored.
                 * @enum {string}
                 */
                status: "created" | "existing";
            }[];
        };
        OcsfImportResult: {
            /** @description Findings read from the file. */
            findings: number;
            /** @description Evidence items they became: one per finding and resource. */
            items: number;
            /** @description Items stored by this request. */
            created: number;
            /** @description Items already stored under the same id: the same scan imported before. */
            existing: number;
        };
        EvidencePage: {
            /** @description Newest `collectedAt` first; items collected at the same instant by id. */
            items: components["schemas"]["EvidenceItem"][];
            /** @description True when at least one more item matching the filters follows this page. */
            hasMore: boolean;
            /** @description Pass as `cursor` to continue. Present when `hasMore` is true; also present, with `hasMore` false and a page that may be short, when a combination of filters that is checked item by item (a subject with a source or a control) reached the bound of index entries one request examines before the page was full. Absent when the listing is complete. Cursors stay valid while new evidence arrives. */
            nextCursor?: string;
        };
        CollectionRunInput: {
            /** @description The collector, as its items name it in `source`. */
            source: string;
            /** @description The kinds the run will send; an item of another kind is refused under it. */
            kinds: components["schemas"]["EvidenceKind"][];
        };
        CollectionRunCompletion: {
            /** @description How many items the collector sent of each kind the run opened, every one of them named (0 for none); at most 1,000,000 per kind. */
            counts: {
                [key: string]: number;
            };
        };
        CollectionRunCancellation: {
            /** @description Why, for people. */
            reason?: string;
        };
        CollectionRun: {
            id: string;
            /** @description The collector, as its items name it in `source`. */
            source: string;
            /** @description Sorted. */
            kinds: components["schemas"]["EvidenceKind"][];
            /**
             * @description `running` until it is completed or cancelled or its `expiresAt` passes; `complete` when the declared counts equal those received; `incomplete` when they disagree, it expired or its collector failed (`incompleteReason`); `cancelled`.
             * @enum {string}
             */
            status: "running" | "complete" | "incomplete" | "cancelled";
            /** Format: date-time */
            openedAt: string;
            openedBy: components["schemas"]["Actor"];
            /**
             * Format: date-time
             * @description When a run not yet ended stops taking batches and reads as incomplete (`abandoned`).
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description When it was completed or cancelled.
             */
            endedAt?: string;
            endedBy?: components["schemas"]["Actor"];
            /** @description The counts its collector declared, per kind; present once completed. */
            declared?: {
                [key: string]: number;
            };
            /** @description The distinct items received under it, per kind, when it was completed. */
            received?: {
                [key: string]: number;
            };
            /**
             * @description Why it is incomplete or cancelled.
             * @enum {string}
             */
            incompleteReason?: "abandoned" | "counts_disagree" | "cancelled" | "failed";
            /** @description The reason given when it was cancelled, or why its collector failed. */
            note?: string;
            /** @description A complete run’s populations that shrank by more than `POPULATION_DROP_PERCENT` since the previous complete run of the same source and kind; absent when none did. */
            drops?: components["schemas"]["CollectionRunDrop"][];
        };
        CollectionRunDrop: {
            kind: components["schemas"]["EvidenceKind"];
            /** @description The previous complete run of the kind. */
            previousRunId: string;
            /** @description Its population’s subjects. */
            previousCount: number;
            /** @description This run’s population’s subjects. */
            count: number;
            /** @description How much it shrank, in percent to one decimal. */
            percent: number;
            /** @description Present once someone acknowledged the drop. */
            acknowledged?: {
                by: components["schemas"]["Actor"];
                /** Format: date-time */
                at: string;
                reason: string;
            };
        };
        CollectionRunDropAcknowledgement: {
            /** @description Why the population shrank, for the auditor: e.g. a reorganisation, a tenant split. */
            reason: string;
        };
        CollectionRunPage: {
            /** @description Newest opened first. */
            items: components["schemas"]["CollectionRun"][];
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        /** @description The population one complete run defined for its source and a kind. */
        CollectionPopulation: {
            runId: string;
            /**
             * Format: date-time
             * @description When the run was completed.
             */
            completedAt: string;
            /** @description Its subjects. */
            count: number;
            /** @description SHA-256 (hex) over its subjects sorted by UTF-16 code unit and joined by a line feed. */
            sha256: string;
        };
        CollectionPopulationPage: {
            /** @description Newest completed first. */
            items: components["schemas"]["CollectionPopulation"][];
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        CollectionSource: {
            /** @description The collector, as its items name it in `source`. */
            source: string;
            /** @description Its run opened last, as it stands now. */
            newestRun: components["schemas"]["CollectionRun"];
        };
        CollectionSourcePage: {
            /** @description In the order of their names, encoded. */
            items: components["schemas"]["CollectionSource"][];
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        ConnectorSettingSpec: {
            /** @description Its name under `settings.connectors.<connector>` (`PUT /api/settings`). */
            name: string;
            description: string;
            /** @description A run cannot start without it. */
            required: boolean;
            example: string;
            /** @description Its value in the newest settings version, when set. */
            value?: string | number | boolean;
        };
        /** @description A secret the connector reads from Secret Manager (locally `functions/.secret.local`). Its value is never shown. */
        ConnectorSecretSpec: {
            name: string;
            description: string;
        };
        Connector: {
            id: string;
            title: string;
            /** @description The `source` its evidence items and collection runs carry. */
            source: string;
            /** @description Every kind a run collects. */
            kinds: components["schemas"]["EvidenceKind"][];
            /** @description The catalog’s controls that read one of its kinds, in id order. */
            feeds: {
                id: string;
                title: string;
            }[];
            settings: components["schemas"]["ConnectorSettingSpec"][];
            secrets: components["schemas"]["ConnectorSecretSpec"][];
            /** @description How it authenticates to the vendor. */
            credentials: string;
            /** @description The least-privilege permissions or scopes to grant it on the vendor’s side. */
            permissions: string[];
            /** @description The deployment runs it (`CONNECTORS`), so its secrets are bound to the worker. */
            enabled: boolean;
            /** @description Enabled, with every setting a run needs saved: a run can start. */
            ready: boolean;
            /** @description What is missing before a run can start, in words; empty when ready. Secrets are checked when a run starts. */
            needs: string[];
            /** @description How often the schedule runs it (`settings.connectors.<connector>.cadenceHours`, 24 by default). */
            cadenceHours: number;
            /** @description Its newest collection run, when it has one. */
            newestRun?: components["schemas"]["CollectionRun"];
            links: {
                self: string;
                /** @description Its collection runs, newest first (`GET /api/runs?source=`). */
                runs: string;
                /** @description Where to `POST` to start a run. */
                start: string;
            };
        };
        ConnectorList: {
            /** @description Every built-in connector, by id. */
            items: components["schemas"]["Connector"][];
        };
        /** @description Why a run failed, in words a person can act on. It never carries a secret. */
        ConnectorRunProblem: {
            /** @enum {string} */
            reason: "not_configured" | "credential_rejected" | "permission_missing" | "not_found" | "vendor_unavailable" | "worker_lost" | "internal";
            detail: string;
            /** @description The permission, scope or role the vendor said is missing. */
            permission?: string;
        };
        ConnectorRun: {
            /** @description The collection run’s id. */
            id: string;
            connector: string;
            /**
             * @description `queued` until the worker starts, `running` while it collects, then `succeeded` (every subject sent and the run completed), `failed` (the run ended incomplete: `problem` says why) or `cancelled`.
             * @enum {string}
             */
            state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /** @description The collection run as it stands: its counts once ended. */
            run: components["schemas"]["CollectionRun"];
            progress: {
                /** @description Calls to the vendor’s API answered so far (a page of a listing, or one resource). */
                calls: number;
                /** @description Evidence items collected so far. */
                items: number;
                /** @description Of those, the items stored under the run. */
                sent: number;
                /** @description How often the vendor asked the connector to slow down. */
                rateLimitWaits: number;
                /** @description How long those waits took, in all. */
                waitedSeconds: number;
            };
            problem?: components["schemas"]["ConnectorRunProblem"];
            /** @description The newest persisted event; 0 before the first. */
            lastEventId: number;
            links: {
                self: string;
                events: string;
                cancel: string;
            };
        };
        /** @description The worker took the run and started reading the vendor’s API. */
        ConnectorRunStartedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.started";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                kinds: components["schemas"]["EvidenceKind"][];
            };
        };
        /** @description A batch of items was stored under the run: the totals so far. */
        ConnectorRunProgressEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.progress";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /** @description Calls to the vendor’s API answered so far (a page of a listing, or one resource). */
                calls: number;
                /** @description Evidence items collected so far. */
                items: number;
                /** @description Of those, the items stored under the run. */
                sent: number;
                /** @description How often the vendor asked the connector to slow down. */
                rateLimitWaits: number;
                /** @description How long those waits took, in all. */
                waitedSeconds: number;
            };
        };
        /** @description The vendor asked the connector to slow down; it waits. */
        ConnectorRateLimitedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "rate_limit.waited";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                seconds: number;
                reason: string;
            };
        };
        /** @description Every subject was sent and the collection run completed. */
        ConnectorRunCompletedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.completed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /**
                 * @description The collection run’s status: complete when every item it counted arrived.
                 * @enum {string}
                 */
                status: "complete" | "incomplete";
                /** @description The distinct items sent, per kind. */
                counts: {
                    [key: string]: number;
                };
            };
        };
        /** @description The connector could not finish: the collection run ended incomplete, what was sent stays stored. */
        ConnectorRunFailedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.failed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                problem: components["schemas"]["ConnectorRunProblem"];
            };
        };
        /** @description Someone cancelled the run; the collection run ended cancelled. */
        ConnectorRunCancelledEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.cancelled";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /** @description The uid of who cancelled it. */
                by?: string;
            };
        };
        /** @description One event of a connector run, sent on the stream as `id`, `event: <type>` and `data: <this object as JSON>`. A run has exactly one terminal event: `run.completed`, `run.failed` or `run.cancelled`. */
        ConnectorRunEvent: components["schemas"]["ConnectorRunStartedEvent"] | components["schemas"]["ConnectorRunProgressEvent"] | components["schemas"]["ConnectorRateLimitedEvent"] | components["schemas"]["ConnectorRunCompletedEvent"] | components["schemas"]["ConnectorRunFailedEvent"] | components["schemas"]["ConnectorRunCancelledEvent"];
        ConnectorRunEventList: {
            events: components["schemas"]["ConnectorRunEvent"][];
            /** @description True once the run’s terminal event is in the list. */
            ended: boolean;
        };
        SubmissionForm: {
            /** @description The controls the submission supports; repeat the field once per control. */
            controls: string[];
            /** @description What is being attested, in plain words. */
            statement: string;
            /** @description What it is about, e.g. a policy; defaults to "manual submission". */
            subject?: string;
            /**
             * Format: date
             * @description The day the statement speaks for; defaults to today.
             */
            effectiveDate?: string;
            /**
             * Format: date-time
             * @description When the statement stops counting; none by default.
             */
            expiresAt?: string;
            /**
             * @description `true` when the statement scopes the controls out; the statement must say why.
             * @enum {string}
             */
            notApplicable?: "true" | "false";
            /** @description Up to 5 files of at most 10 MiB each, of types application/pdf, image/png, image/jpeg, text/plain, text/csv, text/markdown, application/json. */
            attachments?: string[];
        };
        Submission: {
            id: string;
            controls: string[];
            statement: string;
            subject: string;
            /** Format: date */
            effectiveDate: string;
            /** Format: date-time */
            expiresAt?: string;
            notApplicable: boolean;
            /** Format: date-time */
            submittedAt: string;
            submittedBy: components["schemas"]["Actor"];
            /** @description The attestation evidence item the submission became. */
            evidenceId: string;
            attachments: components["schemas"]["Attachment"][];
            review: components["schemas"]["SubmissionReview"];
        };
        /** @description Whether someone other than the submitter accepted or rejected the submission. With `SUBMISSION_REVIEW` `required`, its attestation counts for its controls only once accepted; with `optional` (the default) it counts at once, whatever its review. */
        SubmissionReview: {
            /** @enum {string} */
            state: "pending" | "accepted" | "rejected";
            /**
             * Format: date-time
             * @description When it was reviewed; absent while pending.
             */
            at?: string;
            /** @description Who reviewed it; absent while pending. */
            by?: components["schemas"]["Actor"];
            /** @description Why it was rejected, or the reviewer’s comment on accepting it; absent while pending. */
            reason?: string | null;
            /** @description Whether the reviewer is known to be another person than the submitter (false in public mode, where callers need not sign in, and for a submission made without signing in); absent while pending. */
            independent?: boolean;
            /** @description When `independent` is false, why, in a sentence; null otherwise; absent while pending. */
            caveat?: string | null;
        };
        ReviewDecision: {
            /** @enum {string} */
            decision: "accepted" | "rejected";
            /** @description Why: required to reject (the submitter reads it), optional to accept. */
            reason?: string;
        };
        SubmissionPage: {
            /** @description Newest first. */
            items: components["schemas"]["Submission"][];
            /** @description True when more submissions follow this page. */
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        AnalysisRequest: {
            /** @description The controls to evaluate; every control of the catalog when absent. */
            controls?: string[];
            /**
             * Format: date
             * @description The day to assess, in the report time zone; today by default. A past day is assessed as of its end.
             */
            date?: string;
            /**
             * @description Publish the result as today’s report: the run’s controls take their new result, the others keep the one today’s report gives them, and the summary, readiness and diff are made again over every control, so the published score is always over the whole catalog. The report replaced is kept as a version (`GET /api/report/{date}/versions`). Only for today: past reports never change.
             * @default false
             */
            publish: boolean;
        };
        /**
         * @description `queued` until the worker starts, `running` while it evaluates, then one of `succeeded`, `failed`, `cancelled`.
         * @enum {string}
         */
        AnalysisState: "queued" | "running" | "succeeded" | "failed" | "cancelled";
        Analysis: {
            id: string;
            state: components["schemas"]["AnalysisState"];
            /** Format: date */
            date: string;
            /** @description The requested scope; null for the whole catalog. */
            controls: string[] | null;
            publish: boolean;
            /** Format: date-time */
            createdAt: string;
            createdBy: components["schemas"]["Actor"];
            /** Format: date-time */
            startedAt?: string;
            /** Format: date-time */
            endedAt?: string;
            /** @description `total` is 0 until the run has started. */
            progress: {
                evaluated: number;
                total: number;
            };
            /** @description Statuses of the controls evaluated so far. */
            counts: components["schemas"]["StatusCounts"];
            /** @description When the run succeeded: its statuses over its scope only. For a run of some controls this is not a score of the day (its `score` weighs only those controls); a published run’s day score is in today’s report. */
            summary?: components["schemas"]["ReportSummary"];
            /** @description When the run succeeded: whether its result is now today’s report. */
            published?: boolean;
            /** @description When the run failed: why. */
            problem?: components["schemas"]["AnalysisProblem"];
            /** @description The newest persisted event; 0 before the first. */
            lastEventId: number;
            links: {
                self: string;
                events: string;
                cancel: string;
            };
        };
        AnalysisPage: {
            /** @description Newest first. */
            items: components["schemas"]["Analysis"][];
            /** @description True when more runs follow this page. */
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        /** @description Why a run failed, in the terms of the problem catalog: `code` and `title` are a catalog entry’s. */
        AnalysisProblem: {
            /** @enum {string} */
            code: "worker_lost" | "internal" | "control_not_found" | "report_immutable";
            title: string;
            detail: string;
        };
        /** @description The worker took the run: what it evaluates, and as of when. */
        RunStartedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.started";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /** Format: date */
                date: string;
                /**
                 * Format: date-time
                 * @description Evidence is considered as of this instant.
                 */
                asOf: string;
                /** @description How many controls the run evaluates. */
                total: number;
            };
        };
        /** @description One control’s result, in control-id order. */
        ControlEvaluatedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "control.evaluated";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                controlId: string;
                title: string;
                severity: components["schemas"]["Severity"];
                status: components["schemas"]["ControlStatus"];
                /** @description How many findings the result has. */
                findings: number;
                /** @description This control’s position in the run, 1 to `total`. */
                index: number;
                total: number;
            };
        };
        /** @description The run evaluated every control in its scope; `summary` is over its scope only (see `Analysis.summary`). */
        RunCompletedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.completed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                summary: components["schemas"]["ReportSummary"];
                /** @description Whether the result is now part of today’s report. */
                published: boolean;
            };
        };
        /** @description The run stopped on an error; nothing was published. */
        RunFailedEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.failed";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                problem: components["schemas"]["AnalysisProblem"];
            };
        };
        /** @description Someone cancelled the run; nothing was published. */
        RunCancelledEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run.cancelled";
            /**
             * Format: date-time
             * @description When the event was persisted.
             */
            time: string;
            data: {
                /** @description How many controls had been evaluated. */
                evaluated: number;
                /** @description The uid of who cancelled it. */
                by?: string;
            };
        };
        /** @description One event of a run. On the stream it is sent as `id: <id>`, `event: <type>` and `data: <this object as JSON>`. A run has exactly one terminal event: `run.completed`, `run.failed` or `run.cancelled`. */
        AnalysisEvent: components["schemas"]["RunStartedEvent"] | components["schemas"]["ControlEvaluatedEvent"] | components["schemas"]["RunCompletedEvent"] | components["schemas"]["RunFailedEvent"] | components["schemas"]["RunCancelledEvent"];
        AnalysisEventList: {
            events: components["schemas"]["AnalysisEvent"][];
            /** @description True once the run’s terminal event is in the list. */
            ended: boolean;
        };
        Citation: {
            controlId: string;
            /** @description The evidence item the quoted finding rests on, when there is one. */
            evidenceId?: string;
            /** @description The finding or result, as the report states it. */
            quote: string;
        };
        ChatTurn: {
            /** @enum {string} */
            role: "user" | "assistant";
            content: string;
            /** @description For assistant turns: the citations it answered with, so a follow-up ("why?") knows what it refers to. */
            citations?: components["schemas"]["Citation"][];
        };
        ChatRequest: {
            message: string;
            /** @description The day of the report to ask about, `YYYY-MM-DD` in the report time zone; today’s by default. */
            date?: string;
            /** @description The previous turns, oldest first (at most 20). */
            history?: components["schemas"]["ChatTurn"][];
        };
        ChatAnswer: {
            /** @description Identifies the answer; a streamed answer’s events are kept under it (see `Content-Location`). */
            id: string;
            /**
             * Format: date
             * @description The report the answer is drawn from.
             */
            date: string;
            /** @description Markdown. Text taken from evidence is escaped, so it cannot inject HTML or links. */
            answer: string;
            citations: components["schemas"]["Citation"][];
            /** @description True when the answer rests on the report; false when the question is outside what it covers. */
            grounded: boolean;
            /** @description Questions the report can answer. */
            suggestions: string[];
        };
        /** @description A piece of the answer’s Markdown; the pieces in order make the answer. */
        ChatDeltaEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "answer.delta";
            data: {
                text: string;
            };
        };
        /** @description The answer’s citations, after its last piece. */
        ChatCitationsEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "citations";
            data: {
                citations: components["schemas"]["Citation"][];
            };
        };
        /** @description The last event: the whole answer as JSON would have carried it. */
        ChatDoneEvent: {
            /** @description The event’s number in its stream: 1, 2, 3… without gaps. */
            id: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "done";
            data: components["schemas"]["ChatAnswer"];
        };
        /** @description One event of an answer stream, sent as `id:`, `event:` (its type) and `data:` (this object as JSON). */
        ChatEvent: components["schemas"]["ChatDeltaEvent"] | components["schemas"]["ChatCitationsEvent"] | components["schemas"]["ChatDoneEvent"];
        /** @description One JSON-RPC 2.0 message of the Model Context Protocol: a request (`id` and `method`), a notification (`method` alone) or a response (`id` and `result` or `error`). Only the envelope is described; the MCP server checks each method’s params. */
        McpMessage: {
            /** @constant */
            jsonrpc: "2.0";
            id?: string | number;
            method?: string;
            params?: Record<string, never>;
            result?: Record<string, never>;
            error?: Record<string, never>;
        };
        /** @description One message, or a batch of at most 20 (protocol 2025-03-26; later versions send one). */
        McpRequestBody: unknown;
        /** @description A JSON-RPC 2.0 response: a `result`, or an `error` (an unknown method, invalid params). A tool call answers a result whose `content` is the answer’s Markdown and whose `structuredContent` holds `date`, `answer`, `citations` and `grounded`; a call whose arguments do not fit the tool’s schema answers `isError: true`. */
        McpResponse: {
            /** @constant */
            jsonrpc: "2.0";
            id: string | number | null;
            result?: Record<string, never>;
            error?: {
                code: number;
                message: string;
                data?: unknown;
            };
        };
        /** @description The response to a message, or the responses to a batch’s requests. */
        McpResponseBody: components["schemas"]["McpResponse"] | components["schemas"]["McpResponse"][];
        WebhookInput: {
            /** @description Where to POST: https, and neither a private, loopback, link-local nor cloud metadata address, nor a name that resolves to one (http to a loopback address only in the local emulators). Redirects are not followed. */
            url: string;
            /** @description The events to send. */
            events: ("report.published" | "control.status_changed" | "evidence.expiring" | "exception.expiring" | "analysis.completed" | "source.run_incomplete" | "population.dropped")[];
            /**
             * @description `json`: `{type, timestamp, data}`; `slack`: `{text}`, for a Slack incoming webhook.
             * @default json
             * @enum {string}
             */
            format: "json" | "slack";
            /** @description What the endpoint is, for people. */
            description?: string;
        };
        Webhook: {
            id: string;
            /** @description The URL as listings show it: its origin, then `/…` and the last four characters of its path and query (all of them hidden when they are eight or fewer), e.g. `https://hooks.slack.com/…x7Qa`. A webhook URL may carry a credential (a Slack incoming-webhook URL is one), so it is shown in full once, when created. */
            url: string;
            events: ("report.published" | "control.status_changed" | "evidence.expiring" | "exception.expiring" | "analysis.completed" | "source.run_incomplete" | "population.dropped")[];
            /** @enum {string} */
            format: "json" | "slack";
            description: string;
            /** Format: date-time */
            createdAt: string;
            createdBy: components["schemas"]["Actor"];
        };
        WebhookCreated: components["schemas"]["Webhook"] & {
            /** @description The URL in full, shown this once. */
            url: string;
            /** @description The signing secret (`whsec_…`), shown this once: verify each delivery’s `webhook-signature` with it. */
            secret: string;
        };
        WebhookList: {
            /** @description Oldest first. */
            webhooks: components["schemas"]["Webhook"][];
        };
        DeliveryAttempt: {
            /** Format: date-time */
            at: string;
            durationMs: number;
            /**
             * @description `delivered`: the endpoint answered 2xx.
             * @enum {string}
             */
            outcome: "delivered" | "failed";
            /** @description The endpoint’s HTTP status, when it answered. */
            status?: number;
            /** @description Why the attempt failed, when it did not get a 2xx answer. */
            error?: string;
        };
        Delivery: {
            /** @description The `webhook-id` of every attempt. */
            id: string;
            webhookId: string;
            event: {
                type: string;
                /** Format: date-time */
                timestamp: string;
            };
            /** Format: date-time */
            createdAt: string;
            /**
             * @description `pending` until an attempt succeeds or the retries are spent (`failed`).
             * @enum {string}
             */
            state: "pending" | "delivered" | "failed";
            /** @description Oldest first. */
            attempts: components["schemas"]["DeliveryAttempt"][];
        };
        DeliveryPage: {
            /** @description Newest first. */
            items: components["schemas"]["Delivery"][];
            hasMore: boolean;
            /** @description Pass as `cursor` for the next page; present when `hasMore`. */
            nextCursor?: string;
        };
        /** @description A person who answers for a control, and the role they answer in. */
        Owner: {
            /**
             * Format: email
             * @description Their e-mail address.
             */
            email: string;
            /** @description The role label shown beside them (“IT lead”). */
            role: string;
        };
        /** @description Owners per control and per control family. A control’s own owners win over its family’s; with neither, the catalog’s role label stands. */
        OwnerAssignments: {
            controls: {
                [key: string]: components["schemas"]["Owner"][];
            };
            families: {
                [key: string]: components["schemas"]["Owner"][];
            };
        };
        /** @description Days a control of each severity may stay failing, stale or missing evidence before it is overdue. */
        DueDays: {
            /** @description Days for a critical control. */
            critical: number;
            /** @description Days for a high control. */
            high: number;
            /** @description Days for a medium control. */
            medium: number;
            /** @description Days for a low control. */
            low: number;
        };
        /** @description How many days evidence stays fresh, instead of the catalog’s window: per control (every kind it reads) or per evidence kind (every control reading it). A control’s override wins over its kinds’. */
        FreshnessOverrides: {
            controls: {
                [key: string]: number;
            };
            kinds: {
                [key: string]: number;
            };
        };
        ScopeExclusion: {
            /** @description The requirement’s id (`A.7.4`, `pe-3`). */
            requirement: string;
            /** @description Why it does not apply. */
            reason: string;
        };
        /** @description What each framework’s readiness counts. Every in-scope requirement counts, covered or not. */
        Scope: {
            soc2: {
                /** @description The trust services categories in the audit. `security` (the common criteria) is always in it; the others are optional. */
                categories: ("security" | "availability" | "confidentiality" | "processing_integrity" | "privacy")[];
                /** @description Criteria of those categories left out, each with why: a criterion carved out to a subservice organisation (a cloud provider’s data centres for CC6.4), say. */
                excluded: components["schemas"]["ScopeExclusion"][];
            };
            iso27001: {
                /** @description Annex A controls the Statement of Applicability excludes, each with why. */
                excluded: components["schemas"]["ScopeExclusion"][];
            };
            nist80053: {
                /**
                 * @description The baseline assessed; Evident bundles the moderate baseline’s reference list.
                 * @enum {string}
                 */
                baseline: "moderate";
                /** @description Baseline controls tailored out, each with why. */
                excluded: components["schemas"]["ScopeExclusion"][];
            };
        };
        /** @description Each connector’s non-secret settings (an organisation, a base URL, a project), by connector id. Secrets never go here: they live in Secret Manager, and a setting named like one is refused. */
        ConnectorSettings: {
            [key: string]: {
                [key: string]: string | number | boolean;
            };
        };
        OrganisationSettings: {
            owners: components["schemas"]["OwnerAssignments"];
            dueDays: components["schemas"]["DueDays"];
            freshness: components["schemas"]["FreshnessOverrides"];
            scope: components["schemas"]["Scope"];
            connectors: components["schemas"]["ConnectorSettings"];
        };
        SettingsVersionSummary: {
            /** @description The version’s number, from 1; null for the defaults, before anything was saved. */
            version: number | null;
            /** Format: date-time */
            savedAt: string | null;
            savedBy: components["schemas"]["Actor"] | null;
            /** @description Why it was changed, as the person saving it said. */
            reason: string | null;
        };
        SettingsVersion: {
            /** @description Null for the defaults, before anything was saved. */
            version: number | null;
            /** Format: date-time */
            savedAt: string | null;
            savedBy: components["schemas"]["Actor"] | null;
            reason: string | null;
            settings: components["schemas"]["OrganisationSettings"];
        };
        SettingsChange: {
            /** @description The version this change was made from (`version` of `GET /api/settings`; null when it was the defaults). If a newer one was saved meanwhile the change is refused with 409 `settings_changed`. */
            basedOn: number | null;
            /** @description Why, for the record. */
            reason: string;
            settings: components["schemas"]["OrganisationSettings"];
        };
        SettingsVersionList: {
            /** @description Newest first. */
            items: components["schemas"]["SettingsVersionSummary"][];
            hasMore: boolean;
            /** @description Pass as `cursor` to continue; present when `hasMore` is true. */
            nextCursor?: string;
        };
    };
    responses: {
        /** @description The request does not match the API description. Codes: `invalid_request`, `malformed_json`. */
        BadRequest: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request conflicts with what is stored. Codes: `evidence_conflict`, `idempotency_key_reused`. */
        Conflict: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body or one of its files is too large. Codes: `payload_too_large`, `attachment_too_large`. */
        PayloadTooLarge: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body, one of its files, or its count of fields, files or parts is too large. Codes: `payload_too_large`, `attachment_too_large`, `too_many_form_parts`. */
        FormTooLarge: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body, or the data of one of its items, is too large. Codes: `payload_too_large`, `evidence_too_large`. */
        EvidenceTooLarge: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is too large, or the file makes more evidence than one import stores. Codes: `payload_too_large`, `scan_too_large`. */
        ScanTooLarge: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body or one of its files has a type that is not accepted. Codes: `unsupported_media_type`, `attachment_type_not_allowed`. */
        UnsupportedMediaType: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No evidence item has this id. Codes: `evidence_not_found`. */
        EvidenceNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No control has this id. Codes: `control_not_found`. */
        ControlNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No exception has this id. Codes: `exception_not_found`. */
        ExceptionNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The exception is already revoked. Codes: `exception_revoked`. */
        ExceptionRevoked: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The exception awaits no review. Codes: `exception_not_pending`. */
        ExceptionNotPending: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The caller requested this exception, or made this submission, and may not review it. Codes: `self_review`. */
        SelfReview: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The subject has as many requested or active exceptions of the control as it may have. Codes: `too_many_exceptions`. */
        TooManyExceptions: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No request of the list has this id. Codes: `audit_request_not_found`. */
        AuditRequestNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request changed meanwhile, is not in a state for this step, or would pass a bound of the list. Codes: `audit_request_changed`, `audit_request_status`, `audit_request_limit`. */
        AuditRequestConflict: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The list would pass the requests it holds, or an id was taken meanwhile. Codes: `audit_request_limit`, `audit_request_changed`. */
        AuditRequestListFull: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A newer version of the settings was saved meanwhile. Codes: `settings_changed`. */
        SettingsChanged: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No saved version of the settings has this number. Codes: `settings_version_not_found`. */
        SettingsVersionNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description There is no report for this date. Codes: `report_not_found`. */
        ReportNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No day of the period has a report. Codes: `report_not_found`. */
        NoReportInPeriod: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such control, no report for this date, or no population of this kind in it. Codes: `control_not_found`, `report_not_found`, `population_not_found`. */
        PopulationNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such framework, or no report for this date. Codes: `framework_not_found`, `report_not_found`. */
        FrameworkOrReportNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The run cannot do what was asked in its current state. Codes: `analysis_ended`, `report_immutable`, `idempotency_key_reused`. */
        AnalysisConflict: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No webhook subscription has this id. Codes: `webhook_not_found`. */
        WebhookNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such webhook subscription, or no such delivery of it. Codes: `webhook_not_found`, `delivery_not_found`. */
        WebhookOrDeliveryNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The URL is not one Evident sends to; `detail` says why. Codes: `webhook_target_refused`. */
        WebhookRefused: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The deployment keeps no more subscriptions. Codes: `too_many_webhooks`. */
        TooManyWebhooks: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description This subscription had as many pings and redeliveries as the window allows; send the next after `Retry-After` seconds. Codes: `webhook_rate_limited`. */
        WebhookRateLimited: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The task queue could not take the work (a run, a delivery), or (protected mode) ID tokens cannot be verified right now; retry after `Retry-After` seconds, with the same Idempotency-Key. Codes: `queue_unavailable`, `auth_unavailable`. */
        QueueUnavailable: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Another request is storing some of the same items, or (protected mode) ID tokens cannot be verified right now; send this one again after `Retry-After` seconds. Codes: `evidence_in_flight`, `auth_unavailable`. */
        EvidenceInFlight: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Protected mode: ID tokens cannot be verified right now (the signing keys are out of reach); the token may well be valid. Retry after `Retry-After` seconds; signing in again cannot help. Codes: `auth_unavailable`. */
        AuthUnavailable: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No answer stream has this id. Codes: `chat_message_not_found`. */
        ChatMessageNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No analysis run has this id. Codes: `analysis_not_found`. */
        AnalysisNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No collection run has this id. Codes: `run_not_found`. */
        RunNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No collection run has this id, or it has no population drop of this kind. Codes: `run_not_found`, `drop_not_found`. */
        DropNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The population drop was acknowledged already. Codes: `drop_acknowledged`. */
        DropAcknowledged: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No audit package has this id (or it lapsed). Codes: `audit_package_not_found`. */
        AuditPackageNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The package is still being built, or its build failed. Codes: `audit_package_not_ready`. */
        AuditPackageNotReady: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The range lies outside the file. Codes: `range_not_satisfiable`. */
        RangeNotSatisfiable: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                /** @description `bytes *\/<size>`: the file’s size. */
                "Content-Range"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No built-in connector has this id. Codes: `connector_not_found`. */
        ConnectorNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such connector, or no run of it has this id. Codes: `connector_not_found`, `connector_run_not_found`. */
        ConnectorRunNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The connector cannot start a run now. Codes: `connector_not_ready`, `connector_busy`. */
        ConnectorConflict: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The collection run was completed or cancelled, or expired unfinished. Codes: `run_ended`. */
        RunEnded: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request conflicts with what is stored, or its run takes no more batches. Codes: `evidence_conflict`, `idempotency_key_reused`, `run_ended`, `run_full`. */
        RunConflict: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such submission or attachment. Codes: `submission_not_found`. */
        SubmissionNotFound: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The submission was reviewed already. Codes: `submission_already_reviewed`. */
        SubmissionReviewed: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The stored file fails its integrity check and was not served. Codes: `attachment_tampered`. */
        AttachmentTampered: {
            headers: {
                "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                "Evident-Api-Version": components["headers"]["ApiVersion"];
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
        /** @description The version of the API that answered: `MAJOR.MINOR.PATCH`, this description's `info.version`. A client pins the major version it was generated from (see /docs/api-versions). */
        ApiVersion: string;
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
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
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
            503: components["responses"]["AuthUnavailable"];
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
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
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
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["DocNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listReports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored reports. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getTodayReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; the answer is 304 when the report is unchanged. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Today’s report. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the report bytes. */
                    ETag?: string;
                    /** @description Past dates are immutable; today’s report is revalidated. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description The report has not changed since the `If-None-Match` ETag. */
            304: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; the answer is 304 when the report is unchanged. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The day, `YYYY-MM-DD`, in the report time zone. */
                date: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report of that day. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the report bytes. */
                    ETag?: string;
                    /** @description Past dates are immutable; today’s report is revalidated. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description The report has not changed since the `If-None-Match` ETag. */
            304: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getReportOscal: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; the answer is 304 when the report is unchanged. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The day, `YYYY-MM-DD`, in the report time zone. */
                date: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OSCAL document. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the report bytes. */
                    ETag?: string;
                    /** @description Past dates are immutable; today’s report is revalidated. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OscalAssessmentResults"];
                };
            };
            /** @description The report has not changed since the `If-None-Match` ETag. */
            304: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getReportPoam: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; the answer is 304 when the report is unchanged. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The day, `YYYY-MM-DD`, in the report time zone. */
                date: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OSCAL document. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the report bytes. */
                    ETag?: string;
                    /** @description Past dates are immutable; today’s report is revalidated. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OscalPoam"];
                };
            };
            /** @description The report has not changed since the `If-None-Match` ETag. */
            304: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listReportVersions: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The day, `YYYY-MM-DD`, in the report time zone. */
                date: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of versions, oldest first. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportVersionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getReportVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier response; the answer is 304 when the report is unchanged. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The day, `YYYY-MM-DD`, in the report time zone. */
                date: string;
                /** @description The version’s number, as `GET /api/report/{date}/versions` lists it. */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description That version of the report. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description Strong validator of the report bytes. */
                    ETag?: string;
                    /** @description Past dates are immutable; today’s report is revalidated. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description The report has not changed since the `If-None-Match` ETag. */
            304: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listControls: {
        parameters: {
            query?: {
                status?: components["schemas"]["ControlStatus"];
                family?: string;
                /** @description A framework requirement id the control maps to, e.g. `CC6.1`, `A.5.17` or `ia-2`. */
                framework?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getCatalogOscal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OSCAL document. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OscalComponentDefinition"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getControl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The control. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ControlNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getControlHistory: {
        parameters: {
            query?: {
                /** @description The first day of the period, `YYYY-MM-DD`. */
                from?: string;
                /** @description The last day of the period, `YYYY-MM-DD`; today when absent. */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The control over the period. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlHistory"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ControlNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    exportControlHistory: {
        parameters: {
            query?: {
                /** @description The first day of the period, `YYYY-MM-DD`. */
                from?: string;
                /** @description The last day of the period, `YYYY-MM-DD`; today when absent. */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV, named `<id>-<from>-to-<to>.csv` for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ControlNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getControlSample: {
        parameters: {
            query?: {
                /** @description The first day of the period, `YYYY-MM-DD`. */
                from?: string;
                /** @description The last day of the period, `YYYY-MM-DD`; today when absent. */
                to?: string;
                /** @description How many days to sample; the upper end of the suggestion for how often the control operates when absent. */
                size?: number;
                /** @description The seed that ranks the days, chosen by the auditor (printable characters); the period itself, `<from>..<to>`, when absent, which the audited organisation can foresee. */
                seed?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sample. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlSample"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ControlNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    exportControlSample: {
        parameters: {
            query?: {
                /** @description The first day of the period, `YYYY-MM-DD`. */
                from?: string;
                /** @description The last day of the period, `YYYY-MM-DD`; today when absent. */
                to?: string;
                /** @description How many days to sample; the upper end of the suggestion for how often the control operates when absent. */
                size?: number;
                /** @description The seed that ranks the days, chosen by the auditor (printable characters); the period itself, `<from>..<to>`, when absent, which the audited organisation can foresee. */
                seed?: string;
                /** @description The sampled days, or every day of the population. */
                rows?: "sample" | "population";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV, named `<id>-<from>-to-<to>-sample.csv` (or `-population.csv`) for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ControlNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getControlPopulation: {
        parameters: {
            query: {
                /** @description The report’s day, `YYYY-MM-DD`; today in the report time zone when absent. */
                date?: string;
                /** @description The evidence kind of subjects, one the control’s checks read (`result.populations` lists them). */
                kind: components["schemas"]["EvidenceKind"];
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the population. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlPopulationPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PopulationNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    exportControlPopulation: {
        parameters: {
            query: {
                /** @description The report’s day, `YYYY-MM-DD`; today in the report time zone when absent. */
                date?: string;
                /** @description The evidence kind of subjects, one the control’s checks read (`result.populations` lists them). */
                kind: components["schemas"]["EvidenceKind"];
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV, named `<id>-<date>-<kind>-population.csv` for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    "Evident-Population-Count"?: number;
                    "Evident-Population-Sha256"?: string;
                    "Evident-Report-Run-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PopulationNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getControlSubjectSample: {
        parameters: {
            query: {
                /** @description The report’s day, `YYYY-MM-DD`; today in the report time zone when absent. */
                date?: string;
                /** @description The evidence kind of subjects, one the control’s checks read (`result.populations` lists them). */
                kind: components["schemas"]["EvidenceKind"];
                /** @description How many subjects to sample; the upper end of the suggestion for how often the control operates when absent. */
                size?: number;
                /** @description The seed that ranks the subjects, chosen by the auditor (printable characters); `<date>/<kind>` when absent, which the audited organisation can foresee. */
                seed?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sample. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlSubjectSample"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PopulationNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    exportControlSubjectSample: {
        parameters: {
            query: {
                /** @description The report’s day, `YYYY-MM-DD`; today in the report time zone when absent. */
                date?: string;
                /** @description The evidence kind of subjects, one the control’s checks read (`result.populations` lists them). */
                kind: components["schemas"]["EvidenceKind"];
                /** @description How many subjects to sample; the upper end of the suggestion for how often the control operates when absent. */
                size?: number;
                /** @description The seed that ranks the subjects, chosen by the auditor (printable characters); `<date>/<kind>` when absent, which the audited organisation can foresee. */
                seed?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV, named `<id>-<date>-<kind>-sample.csv` for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PopulationNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listFrameworks: {
        parameters: {
            query?: {
                /** @description The report’s day, `YYYY-MM-DD` in the report time zone; today when absent. */
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every framework’s readiness. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FrameworkList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getFramework: {
        parameters: {
            query?: {
                /** @description The report’s day, `YYYY-MM-DD` in the report time zone; today when absent. */
                date?: string;
            };
            header?: never;
            path: {
                /** @description One of `soc2`, `iso27001`, `nist80053`. */
                framework: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The framework’s readiness. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FrameworkDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["FrameworkOrReportNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listExceptions: {
        parameters: {
            query?: {
                /** @description `active`: approved and in force today. `requested`: awaiting approval or refusal. `refused`: refused. `ended`: expired (approved or not) or revoked. `all`: every exception ever recorded, whatever its state. */
                state?: "active" | "requested" | "refused" | "ended" | "all";
                control?: string;
                /** @description Days from today; only exceptions whose expiry day is at most this far ahead. */
                expiringWithin?: number;
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of exceptions. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExceptionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    createException: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExceptionInput"];
            };
        };
        responses: {
            /** @description The exception, requested. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The new exception. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exception"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["TooManyExceptions"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getException: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exception. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exception"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ExceptionNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    approveException: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Approval"];
            };
        };
        responses: {
            /** @description The exception, approved. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exception"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SelfReview"];
            404: components["responses"]["ExceptionNotFound"];
            409: components["responses"]["ExceptionNotPending"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    refuseException: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Refusal"];
            };
        };
        responses: {
            /** @description The exception, refused. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exception"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SelfReview"];
            404: components["responses"]["ExceptionNotFound"];
            409: components["responses"]["ExceptionNotPending"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    revokeException: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Revocation"];
            };
        };
        responses: {
            /** @description The exception, revoked. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exception"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ExceptionNotFound"];
            409: components["responses"]["ExceptionRevoked"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getAuditSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The published keys. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditSigningKeys"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    getAuditPackage: {
        parameters: {
            query: {
                /** @description The first day of the period, `YYYY-MM-DD`. */
                from: string;
                /** @description The last day of the period, `YYYY-MM-DD`, today at the latest. */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package, named `evident-audit-<from>-to-<to>.zip` for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NoReportInPeriod"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listAuditPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The packages. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPackageList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    startAuditPackage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditPackageRequest"];
            };
        };
        responses: {
            /** @description The package of the same period and reports, built or building. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPackage"];
                };
            };
            /** @description The package, queued. */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The package. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPackage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NoReportInPeriod"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QueueUnavailable"];
        };
    };
    getAuditPackageBuild: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPackage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditPackageNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    streamAuditPackageEvents: {
        parameters: {
            query?: {
                /** @description The same, for clients that cannot set the header; the header wins when both are sent. */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received; only later events are sent. */
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream, or the events as JSON. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                    "application/json": components["schemas"]["AuditPackageEventList"];
                };
            };
            /** @description The build has ended and the client already has every event; do not reconnect. */
            204: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditPackageNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    downloadAuditPackage: {
        parameters: {
            query?: never;
            header?: {
                Range?: string;
                "If-Range"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole zip. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    ETag?: string;
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description The range asked for. */
            206: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Range"?: string;
                    ETag?: string;
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditPackageNotFound"];
            409: components["responses"]["AuditPackageNotReady"];
            416: components["responses"]["RangeNotSatisfiable"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listAuditRequests: {
        parameters: {
            query?: {
                status?: "open" | "answered" | "accepted" | "returned";
                control?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The requests. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequestList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    createAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditRequestInput"];
            };
        };
        responses: {
            /** @description The request, open. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The new request. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["AuditRequestListFull"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    importAuditRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description Every row was in the list already. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequestImport"];
                };
            };
            /** @description At least one request was made. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequestImport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["AuditRequestListFull"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    exportAuditRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV, named `requests.csv` for saving. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    editAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditRequestEdit"];
            };
        };
        responses: {
            /** @description The request after the step. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            409: components["responses"]["AuditRequestConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    answerAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditAnswerChange"];
            };
        };
        responses: {
            /** @description The request after the step. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            409: components["responses"]["AuditRequestConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    acceptAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditDecision"];
            };
        };
        responses: {
            /** @description The request after the step. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            409: components["responses"]["AuditRequestConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    returnAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditDecisionWithComment"];
            };
        };
        responses: {
            /** @description The request after the step. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            409: components["responses"]["AuditRequestConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    reopenAuditRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditDecisionWithComment"];
            };
        };
        responses: {
            /** @description The request after the step. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AuditRequestNotFound"];
            409: components["responses"]["AuditRequestConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listEvidence: {
        parameters: {
            query?: {
                kind?: components["schemas"]["EvidenceKind"];
                subject?: string;
                /** @description The collector or person that produced the items (`submission` for manual submissions). */
                source?: string;
                /** @description Items a control reads: its evidence kinds, and attestations that name it. */
                control?: string;
                /** @description `collectedAt` at or after. */
                from?: string;
                /** @description `collectedAt` before. */
                to?: string;
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of evidence. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidencePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    ingestEvidence: {
        parameters: {
            query?: {
                /** @description The collection run the items are sent under (`POST /api/runs`). Every item must be of a kind the run opened and of its source (400 `invalid_request`, naming each item); the run must still be `running` (404 `run_not_found`, 409 `run_ended`), and have room for the batch (409 `run_full`). A refused batch stores nothing. An item already stored (a retry, or the same item sent in an earlier run) is answered `existing` and counts for this run too. */
                run?: string;
            };
            header?: {
                /** @description Makes a retried request return the first one’s result; item ids are derived from it. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Every item was already stored under its id; nothing new was written. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            /** @description At least one item was stored. A repeated `Idempotency-Key` gets the first request’s answer again, unchanged. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["RunNotFound"];
            409: components["responses"]["RunConflict"];
            413: components["responses"]["EvidenceTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["EvidenceInFlight"];
        };
    };
    importOcsfFindings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>[];
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Every item was already stored under its id (or the file held no finding). */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcsfImportResult"];
                };
            };
            /** @description At least one item was stored. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcsfImportResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ScanTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["EvidenceInFlight"];
        };
    };
    getEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The item. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["EvidenceNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listCollectionRuns: {
        parameters: {
            query: {
                source: string;
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRunPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    openCollectionRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectionRunInput"];
            };
        };
        responses: {
            /** @description The run, `running`. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The new run. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listCollectionSources: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sources. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionSourcePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listCollectionPopulations: {
        parameters: {
            query: {
                source: string;
                kind: components["schemas"]["EvidenceKind"];
                /** @description Only populations completed on or after this day, `YYYY-MM-DD` (from 00:00 UTC). */
                since?: string;
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of populations. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionPopulationPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getCollectionRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run as it stands now. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["RunNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    completeCollectionRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectionRunCompletion"];
            };
        };
        responses: {
            /** @description The run, `complete` or `incomplete`. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["RunNotFound"];
            409: components["responses"]["RunEnded"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    acknowledgeCollectionRunDrop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                kind: "idp.user" | "idp.settings" | "access.review" | "repo.branch_protection" | "repo.member" | "ci.pipeline" | "backup.job" | "backup.restore_test" | "vuln.scan" | "endpoint.device" | "logging.sink" | "monitoring.alert_policy" | "crypto.key" | "storage.bucket" | "tls.endpoint" | "training.completion" | "people.screening" | "vendor.assessment" | "incident.exercise" | "scanner.finding" | "attestation";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectionRunDropAcknowledgement"];
            };
        };
        responses: {
            /** @description The run, with the drop acknowledged. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["DropNotFound"];
            409: components["responses"]["DropAcknowledged"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    cancelCollectionRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CollectionRunCancellation"];
            };
        };
        responses: {
            /** @description The run, `cancelled`. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["RunNotFound"];
            409: components["responses"]["RunEnded"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every connector. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connector: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connector. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connector"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ConnectorNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    startConnectorRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connector: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, queued. */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The run. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ConnectorNotFound"];
            409: components["responses"]["ConnectorConflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QueueUnavailable"];
        };
    };
    getConnectorRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connector: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ConnectorRunNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    cancelConnectorRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connector: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled run. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ConnectorRunNotFound"];
            409: components["responses"]["RunEnded"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    streamConnectorRunEvents: {
        parameters: {
            query?: {
                /** @description The same, for clients that cannot set the header; the header wins when both are sent. */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received; only later events are sent. */
                "Last-Event-ID"?: string;
            };
            path: {
                connector: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream, or the events as JSON. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                    "application/json": components["schemas"]["ConnectorRunEventList"];
                };
            };
            /** @description The run has ended and the client already has every event; do not reconnect. */
            204: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ConnectorRunNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listSubmissions: {
        parameters: {
            query?: {
                control?: string;
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of submissions. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmissionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    createSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["SubmissionForm"];
            };
        };
        responses: {
            /** @description The submission, stored and turned into evidence. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The new submission. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submission"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["FormTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The submission. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submission"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["SubmissionNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    reviewSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewDecision"];
            };
        };
        responses: {
            /** @description The submission, with the review just recorded. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The submission, where its review is read. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submission"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SelfReview"];
            404: components["responses"]["SubmissionNotFound"];
            409: components["responses"]["SubmissionReviewed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    downloadAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with its recorded media type and SHA-256 (`Digest`-style in `X-Content-SHA256`). */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "Content-Disposition"?: string;
                    "X-Content-SHA256"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["SubmissionNotFound"];
            409: components["responses"]["AttachmentTampered"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listAnalyses: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs, newest first. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalysisPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    startAnalysis: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retried request answer the run the first one started. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AnalysisRequest"];
            };
        };
        responses: {
            /** @description The run, queued (or as it is now, for a retried key). */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The run. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["AnalysisConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QueueUnavailable"];
        };
    };
    getAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AnalysisNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    cancelAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled run. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AnalysisNotFound"];
            409: components["responses"]["AnalysisConflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    streamAnalysisEvents: {
        parameters: {
            query?: {
                /** @description The same, for clients that cannot set the header; the header wins when both are sent. */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received; only later events are sent. */
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream, or the events as JSON. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                    "application/json": components["schemas"]["AnalysisEventList"];
                };
            };
            /** @description The run has ended and the client already has every event; do not reconnect. */
            204: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["AnalysisNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    chat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description The answer, as JSON or as a stream of `ChatEvent`s. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description For streams: where to resume them. */
                    "Content-Location"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatAnswer"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ReportNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    streamChatAnswer: {
        parameters: {
            query?: {
                /** @description The same, for clients that cannot set the header; the header wins when both are sent. */
                lastEventId?: string;
            };
            header?: {
                /** @description The id of the last event received; only later events are sent. */
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rest of the answer’s events. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description The client already has every event of this answer. */
            204: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ChatMessageNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: {
                /** @description The protocol version agreed at `initialize`; clients send it on every later request. */
                "MCP-Protocol-Version"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpRequestBody"];
            };
        };
        responses: {
            /** @description The JSON-RPC response, or the responses of a batch. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpResponseBody"];
                };
            };
            /** @description The messages held no request (notifications, or responses): nothing to answer. */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions, without their secrets, their URLs shortened. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookInput"];
            };
        };
        responses: {
            /** @description The subscription, with its URL in full and its secret. */
            201: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    /** @description The new subscription. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["TooManyWebhooks"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["WebhookRefused"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription, without its secret, its URL shortened. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WebhookNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WebhookNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued. */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WebhookNotFound"];
            429: components["responses"]["WebhookRateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QueueUnavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries, with every attempt. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WebhookNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again. */
            202: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WebhookOrDeliveryNotFound"];
            429: components["responses"]["WebhookRateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QueueUnavailable"];
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    saveSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettingsChange"];
            };
        };
        responses: {
            /** @description The version saved. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["SettingsChanged"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listSettingsVersions: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The previous page’s `nextCursor`, exactly as given. Anything else — made up, altered, or another listing’s — answers 400 `invalid_request`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of versions. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsVersionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getSettingsVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version. */
            200: {
                headers: {
                    "Evident-Api-Version": components["headers"]["ApiVersion"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingsVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["SettingsVersionNotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
}
