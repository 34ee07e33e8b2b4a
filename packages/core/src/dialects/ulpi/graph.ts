/**
 * Strongly connected components with a cycle (size > 1, or a self-loop), by an iterative Tarjan walk so that a
 * deep dependency chain cannot overflow the stack. Components list their ids in `order`.
 */
export function dependencyCycles(
  order: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  const rank = new Map(order.map((id, i) => [id, i]));
  for (const start of order) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [v, i] = frame;
      const next = edges.get(v) ?? [];
      if (i < next.length) {
        frame[1]++;
        const w = next[i]!;
        if (!rank.has(w)) continue;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== v);
        if (comp.length > 1 || (edges.get(v) ?? []).includes(v))
          out.push(comp.sort((a, b) => rank.get(a)! - rank.get(b)!));
      }
    }
  }
  return out.sort((a, b) => rank.get(a[0]!)! - rank.get(b[0]!)!);
}
