/**
 * What a control's result says when evidence it reads was set aside to keep an evaluation's state
 * within its budget of bytes (evidence-state.ts): one `error` finding per kind that lost items,
 * so the control fails, visibly and with the reason, rather than pass on the evidence that was
 * left — the set-aside items may be the very ones that fail it.
 */
import { plural } from '@evident/contract';
import type { Control, Finding, SetAsideEvidence } from './model.js';

/** The kinds a control reads: those it requires, scanner findings when a scanner feeds it, and attestations that name it. */
function kindsRead(control: Control): string[] {
  const kinds = new Set(control.evidence.map((requirement) => requirement.kind));
  if (control.scanner.checks.length > 0 || control.scanner.frameworks.length > 0) kinds.add('scanner.finding');
  kinds.add('attestation');
  return [...kinds].sort();
}

export function setAsideFindings(control: Control, setAside: SetAsideEvidence): Finding[] {
  const findings: Finding[] = [];
  const mib = setAside.budgetBytes / 2 ** 20;
  const budget = Number.isInteger(mib) ? `${mib} MiB` : `${setAside.budgetBytes.toLocaleString('en')} bytes`;
  for (const kind of kindsRead(control)) {
    const count =
      kind === 'attestation'
        ? (setAside.byReader.get(`attestation\u0001${control.id}`) ?? 0) + (setAside.byReader.get('attestation\u0001*') ?? 0)
        : (setAside.byReader.get(kind) ?? 0);
    if (count === 0) continue;
    findings.push({
      outcome: 'error',
      kind,
      message:
        `${plural(count, `${kind} item`)} ${count === 1 ? 'was' : 'were'} left out of this evaluation: the evidence it ` +
        `holds would have been larger than its budget of ${budget} (docs/storage.md). ${control.id} cannot pass until ` +
        'the evidence fits.',
      evidence: [],
    });
  }
  return findings;
}
