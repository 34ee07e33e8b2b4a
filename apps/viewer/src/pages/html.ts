import { valueText } from '@ckpt/core';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A template tag that escapes every interpolated value (pass `raw(...)` for trusted markup). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += (v instanceof Raw ? v.value : escapeHtml(valueText(v ?? ''))) + strings[i + 1]!;
  });
  return new Raw(out);
}

/** Markup that is already safe. */
export class Raw {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks trusted markup (built by `html`) for interpolation without escaping. */
export function raw(value: string): Raw {
  return new Raw(value);
}
