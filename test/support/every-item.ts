/**
 * Every evidence item a store holds, read the slow way — every batch of every partition — as
 * the reference the tests compare the product's cheaper reads with.
 */
import type { EvidenceItem } from '../../functions/src/assessment/model.ts';
import { EvidenceStore } from '../../functions/src/evidence/evidence-store.ts';
import type { ObjectStore } from '../../functions/src/storage/object-store.ts';

export async function everyItem(store: ObjectStore, receivedUpTo = Infinity): Promise<EvidenceItem[]> {
  const evidence = new EvidenceStore(store);
  const items: EvidenceItem[] = [];
  for await (const batch of evidence.batchesBetween(-Infinity, receivedUpTo)) items.push(...(await evidence.readBatch(batch)));
  return items.filter((item) => Date.parse(item.receivedAt) <= receivedUpTo);
}
