/**
 * The submit page's form as a person fills it in and sends it: the fields, the files chosen (and
 * those left out, and why), the upload's progress, and how it ended: what the server stored, or
 * its problems under the fields they are about. The upload itself is given, so the flow is tested
 * without a browser or a server.
 */
import { plural } from '@evident/contract';
import { errorOf, messageOf, unreachable } from './api.ts';
import type { Submission } from './api-types.ts';
import { addFiles, asUploaded, type Rejected } from './chosen-files.ts';
import { controlIdsIn } from './control-ids.ts';
import { emptyValues, formDataOf, problemsOf, type Field, type FormProblems } from './submission-form.ts';
import type { UploadOptions, UploadProgress } from './upload.ts';

/** Sends the form; resolves to the server's response, whatever its status. */
export type SendForm = (form: FormData, options: UploadOptions) => Promise<Response>;

export class SubmissionUpload {
  #values = $state(emptyValues());
  #files = $state<File[]>([]);
  #rejected = $state<Rejected[]>([]);
  #problems = $state<FormProblems>();
  #progress = $state<UploadProgress>();
  #created = $state<Submission>();
  #announcement = $state('');
  readonly #send: SendForm;
  readonly #onStored: () => void;
  /** Stops an upload whose result no one would see. */
  readonly #leaving = new AbortController();

  /** `send` uploads the form; `onStored` is called once the server has stored a submission. */
  constructor(send: SendForm, onStored: () => void) {
    this.#send = send;
    this.#onStored = onStored;
  }

  /** The fields as typed; the form binds to them. */
  get values() {
    return this.#values;
  }

  get files(): readonly File[] {
    return this.#files;
  }

  /** What the server refused, by field, and what to say at the top; none before a refusal. */
  get problems(): FormProblems | undefined {
    return this.#problems;
  }

  /** What the server stored from the last upload. */
  get created(): Submission | undefined {
    return this.#created;
  }

  /** How much of the body has been sent, while an upload is under way. */
  get progress(): UploadProgress | undefined {
    return this.#progress;
  }

  get uploading(): boolean {
    return this.#progress !== undefined;
  }

  /** How much has been sent, in percent, once the browser knows the body's size. */
  get percent(): number | undefined {
    return this.#progress?.total ? Math.round((this.#progress.loaded / this.#progress.total) * 100) : undefined;
  }

  /** What the last change to the files did, for screen readers (the list and the errors say it to the eye). */
  get announcement(): string {
    return this.#announcement;
  }

  /** Adds files chosen or dropped, keeping those the API would accept and saying why each other one was left out. */
  choose(list: ArrayLike<File> | null | undefined): void {
    if (!list || list.length === 0) return;
    const result = addFiles(this.#files, Array.from(list));
    const added = result.files.length - this.#files.length;
    this.#files = result.files;
    this.#rejected = result.rejected;
    this.#announcement = [
      added > 0 ? `${plural(added, 'file')} added.` : '',
      ...result.rejected.map((file) => `${file.name} was left out: it ${file.reason}.`),
    ]
      .filter(Boolean)
      .join(' ');
  }

  remove(index: number): void {
    this.#announcement = `${this.#files[index]?.name ?? 'The file'} removed.`;
    this.#files = this.#files.filter((_, at) => at !== index);
    this.#rejected = [];
  }

  /** The messages under a field: files left out, then the server's. */
  messagesOf(field: Field): string[] {
    return [
      ...(field === 'attachments' ? this.#rejected.map((file) => `${file.name} ${file.reason}.`) : []),
      ...(this.#problems?.byField[field] ?? []),
    ];
  }

  invalid(field: Field): boolean {
    return this.messagesOf(field).length > 0;
  }

  /** The hint, and the errors when there are some, describe a field. */
  describedBy(field: Field, hint?: string): string | undefined {
    return [hint, this.invalid(field) ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined;
  }

  /**
   * Uploads the form. Stored, the form is emptied and `created` says what was stored; refused,
   * `problems` says why. False, doing nothing, while an upload is already under way.
   */
  async submit(): Promise<boolean> {
    if (this.uploading) return false;
    this.#problems = undefined;
    this.#created = undefined;
    const uploads = this.#files.map((file) => asUploaded(file));
    const sent = { controls: controlIdsIn(this.#values.controls), files: uploads.map((file) => file.name) };
    this.#progress = { loaded: 0, total: undefined };
    try {
      const response = await this.#send(formDataOf(this.#values, uploads), {
        onProgress: (progress) => (this.#progress = progress),
        signal: this.#leaving.signal,
      });
      if (response.ok) {
        this.#created = (await response.json()) as Submission;
        this.#values = emptyValues();
        this.#files = [];
        this.#rejected = [];
        this.#announcement = '';
        this.#onStored();
      } else {
        const error = await errorOf(response);
        this.#problems = error.problem ? problemsOf(error.problem, sent) : { byField: {}, summary: messageOf(error) };
      }
    } catch {
      this.#problems = { byField: {}, summary: unreachable };
    } finally {
      this.#progress = undefined;
    }
    return true;
  }

  /** The page is going away: an upload under way stops. */
  stop(): void {
    this.#leaving.abort();
  }
}
