/**
 * What `String(value)` gives for a value read from a document, without throwing. A parsed object whose own
 * `toString` member is not a function (`{"toString":0}`, or an array holding one) makes `String`, template
 * literals, `join`, `>=` and property-key conversion throw "Cannot convert object to primitive value"; such a value
 * shows as its JSON text instead.
 */
export function valueText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return jsonTextOf(value);
  }
}

/** Whether `String(value)` would throw (see `valueText`). */
export function hasNoText(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  try {
    // The length is read so that a minifier cannot drop the conversion as free of effects: it is what may throw.
    return String(value).length < 0;
  } catch {
    return true;
  }
}

function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
