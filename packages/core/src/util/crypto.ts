import { createRequire } from 'node:module';

// node:crypto costs ~6 ms to load (OpenSSL set-up): a third of what `ckpt validate` on one file may spend beyond
// bare Node. It is loaded on first use only, so commands that never hash never pay for it.
type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;
const load = (): Crypto => {
  crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto;
  return crypto;
};

/** `createHash` from node:crypto, loaded on first use. */
export function createHash(algorithm: string): import('node:crypto').Hash {
  return load().createHash(algorithm);
}

/** `randomBytes` from node:crypto, loaded on first use. */
export function randomBytes(size: number): Buffer {
  return load().randomBytes(size);
}
