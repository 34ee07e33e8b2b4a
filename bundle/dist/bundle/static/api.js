// @ts-check
/** Documents already fetched, by URL, with their entity tags: a refresh of an unchanged run costs a 304. */
const held = new Map();

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Fetches a JSON document; `changed` is false when the server answered 304 for what we hold.
 * @param {string} url
 * @returns {Promise<{ data: any, changed: boolean }>}
 */
export async function getJson(url) {
  const prior = held.get(url);
  const res = await fetch(url, {
    cache: 'no-store',
    headers: prior ? { 'if-none-match': prior.etag } : {},
  });
  if (res.status === 304 && prior) return { data: prior.data, changed: false };
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  const data = await res.json();
  const etag = res.headers.get('etag');
  if (etag) held.set(url, { etag, data });
  return { data, changed: true };
}

/** @param {string} url @returns {Promise<string>} */
export async function getText(url) {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  return res.text();
}
