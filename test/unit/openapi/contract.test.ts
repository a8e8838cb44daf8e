/**
 * The contract values (`@evident/contract`) are the ones the API description publishes:
 * the spec's patterns, limits, severities and terminal events come from them, and the few
 * derived values (the severity rank, a pattern without anchors) say the same thing.
 */
import { describe, expect, it } from 'vitest';
import {
  analysisIdPattern,
  controlIdPattern,
  evidenceKindNames,
  isTerminal,
  maxBatchBytes,
  maxBatchItems,
  plural,
  severities,
  severityWeights,
  slugPattern,
  terminalEventTypes,
  unanchored,
} from '@evident/contract';
import { evidenceKinds } from '@evident/contract/evidence-kinds';
import { specDocument } from '../../support/families.ts';

type Schema = { enum?: string[]; pattern?: string; maxItems?: number; properties?: Record<string, Schema> };
const schemas = specDocument().components!.schemas as Record<string, Schema>;

describe('the contract', () => {
  it('describes the data of every evidence kind it names, in the same order', () => {
    expect(Object.keys(evidenceKinds)).toEqual([...evidenceKindNames]);
  });

  it('is what the API description publishes', () => {
    expect(schemas['Severity']!.enum).toEqual([...severities]);
    expect(schemas['ControlSummary']!.properties!['id']!.pattern).toBe(controlIdPattern);
    expect(schemas['Analysis']!.properties!['id']!.pattern).toBe(analysisIdPattern);
    expect(schemas['EvidenceBatch']!.properties!['items']!.maxItems).toBe(maxBatchItems);
    const ingest = specDocument().paths!['/api/evidence']!.post as unknown as Record<string, unknown>;
    expect(ingest['x-body-limit']).toBe(maxBatchBytes);
  });

  it('weighs the more severe more', () => {
    const weights = severities.map((severity) => severityWeights[severity]);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
  });

  it('ends a run with exactly the terminal events the spec names', () => {
    const types = (schemas['AnalysisEvent'] as { discriminator: { mapping: Record<string, string> } }).discriminator.mapping;
    const terminal = Object.keys(types).filter(isTerminal);
    expect(terminal.sort()).toEqual([...terminalEventTypes].sort());
    expect(isTerminal('control.evaluated')).toBe(false);
  });

  it('embeds a pattern without its anchors, and words counts', () => {
    expect(unanchored(slugPattern)).toBe('[a-z0-9]+(?:-[a-z0-9]+)*');
    expect(new RegExp(`^/docs/(${unanchored(slugPattern)})$`).exec('/docs/getting-started')?.[1]).toBe('getting-started');
    expect([plural(1, 'day'), plural(3, 'day'), plural(2, 'batch', 'batches')]).toEqual(['1 day', '3 days', '2 batches']);
  });
});
