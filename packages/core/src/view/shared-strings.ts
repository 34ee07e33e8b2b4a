/**
 * The strings documents repeat, held once. A document a worker sent is a structured-clone copy, every string in it
 * a new one (`JSON.parse` on this thread shares only some): 100k team events repeat their run id, stage, agent,
 * status, kind and inputs in each. Kept, every copy is moved by the scavenger twice. Each string member of a value
 * (and each string in an array member) equal to one of the last two seen under the same key is replaced by that
 * one: the same characters, so nothing that reads the value can tell, and the copy dies young.
 */
export class SharedStrings {
  /** The last two different strings seen under each member name (events alternate: started, finished). */
  private readonly last = new Map<string, string>();
  private readonly before = new Map<string, string>();
  /** The same for the strings in array members, by the member's name. */
  private readonly lastItem = new Map<string, string>();
  private readonly beforeItem = new Map<string, string>();
  private kindSeen: string | undefined;

  /** `kind`, or the equal string seen last. */
  kind(kind: string | undefined): string | undefined {
    if (kind !== this.kindSeen && kind !== undefined) this.kindSeen = kind;
    return kind === undefined ? undefined : this.kindSeen;
  }

  /**
   * Replaces, in place, the string members of a plain object value (and the strings of its array members) by equal
   * strings seen before under the same names. Anything else (nested objects, a value that is not a plain object)
   * is left as it is.
   */
  share(value: unknown): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    if (Object.getPrototypeOf(value) !== Object.prototype) return;
    const v = value as Record<string, unknown>;
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (typeof x === 'string') v[k] = held(this.last, this.before, k, x);
      else if (Array.isArray(x))
        for (let i = 0; i < x.length; i++) {
          const e = x[i];
          if (typeof e === 'string') x[i] = held(this.lastItem, this.beforeItem, k, e);
        }
    }
  }
}

/**
 * The string seen under `key` (last or the one before) equal to `s`, else `s`, which becomes the last. Strings are
 * compared by their characters: JS cannot tell two equal strings apart, so storing the one held changes nothing
 * but which copy stays alive.
 */
function held(last: Map<string, string>, before: Map<string, string>, key: string, s: string): string {
  const a = last.get(key);
  if (a === s) return a;
  const b = before.get(key);
  if (b === s) return b;
  if (a !== undefined) before.set(key, a);
  last.set(key, s);
  return s;
}
