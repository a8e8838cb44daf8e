/**
 * How often a control of the catalog operates, for the sample size an auditor would test. The
 * catalog has no cadence field, so it is derived: a control with checks (its own or a
 * scanner's) is tested by every daily report, so it operates daily; one that rests on
 * attestations operates as often as its attestation must be renewed, its shortest freshness
 * window. docs/sampling.md gives the table.
 */
import { suggestedSampleSizes, type ControlFrequency } from '@evident/contract';
import type { Control } from './model.js';

/** The cadence an attestation's freshness window implies, from the most frequent down. */
const cadenceByWindow: readonly { upToDays: number; frequency: ControlFrequency }[] = [
  { upToDays: 1, frequency: 'daily' },
  { upToDays: 7, frequency: 'weekly' },
  { upToDays: 31, frequency: 'monthly' },
  // More often than yearly but less than monthly (a half-yearly review) is sampled as quarterly,
  // the larger of the two neighbouring suggestions.
  { upToDays: 364, frequency: 'quarterly' },
];

export function controlFrequency(control: Pick<Control, 'checks' | 'scanner' | 'evidence'>): ControlFrequency {
  if (control.checks.length > 0 || control.scanner.checks.length > 0) return 'daily';
  const windows = control.evidence.map((need) => need.freshnessDays);
  if (windows.length === 0) return 'annual';
  const shortest = Math.min(...windows);
  return cadenceByWindow.find(({ upToDays }) => shortest <= upToDays)?.frequency ?? 'annual';
}

/** The size a sample of the control's days defaults to: the upper end of its frequency's range. */
export function suggestedSampleSize(control: Pick<Control, 'checks' | 'scanner' | 'evidence'>) {
  const frequency = controlFrequency(control);
  return { frequency, range: suggestedSampleSizes[frequency], size: suggestedSampleSizes[frequency].maximum };
}
