/**
 * The `fields` parameter of Google's APIs (a partial response): `a,b(c,d),e/f` keeps `a`, `b`
 * with only its `c` and `d` (in each element when `b` is an array), and `e` with only its `f`.
 * See https://developers.google.com/workspace/admin/directory/v1/guides/performance#partial.
 */
export type Selection = Map<string, Selection | true>;

export function parseFields(text: string): Selection {
  let position = 0;
  function list(): Selection {
    const selection: Selection = new Map();
    for (;;) {
      const name = /^[A-Za-z0-9_$.#-]+(?:\/[A-Za-z0-9_$.#-]+)*/.exec(text.slice(position))?.[0];
      if (!name) throw new Error(`Invalid field selection at ${position}: ${text}`);
      position += name.length;
      let inner: Selection | true = true;
      if (text[position] === '(') {
        position += 1;
        inner = list();
        if (text[position] !== ')') throw new Error(`Unclosed "(" in field selection: ${text}`);
        position += 1;
      }
      const path = name.split('/');
      const leaf = path.pop() as string;
      let target = selection;
      for (const step of path) {
        const next = target.get(step);
        const nested: Selection = next instanceof Map ? next : new Map();
        target.set(step, nested);
        target = nested;
      }
      target.set(leaf, inner);
      if (text[position] !== ',') return selection;
      position += 1;
    }
  }
  const selection = list();
  if (position !== text.length) throw new Error(`Unexpected "${text[position]}" in field selection: ${text}`);
  return selection;
}

export function selectFields(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((element) => selectFields(element, selection));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const selected: Record<string, unknown> = {};
  for (const [name, inner] of selection) {
    if (!(name in record)) continue;
    selected[name] = inner === true ? record[name] : selectFields(record[name], inner);
  }
  return selected;
}
