// Test helper (excluded from the build): a strict little XML reader, enough to check what JUnit consumers read.
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(\w+|#\d+|#x[0-9a-f]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    if (!(e in ENTITIES)) throw new Error(`unknown entity ${m}`);
    return ENTITIES[e]!;
  });

/** Parses an XML document into elements; throws on anything not well-formed (unbalanced tags, raw `<` or `&`). */
export function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [{ name: '#root', attrs: {}, children: [], text: '' }];
  const tag = /<(\/?)([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  // biome-ignore lint/suspicious/noAssignInExpressions: the usual regex loop
  while ((m = tag.exec(body)) !== null) {
    pos = tag.lastIndex;
    const top = stack.at(-1)!;
    if (m[5] !== undefined) {
      if (/&(?!\w+;|#\d+;|#x[0-9a-f]+;)/i.test(m[5])) throw new Error('raw & in text');
      top.text += decode(m[5]);
      continue;
    }
    if (m[1]) {
      if (top.name !== m[2]) throw new Error(`</${m[2]}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = decode(a[2]!);
    const el: XmlElement = { name: m[2]!, attrs, children: [], text: '' };
    top.children.push(el);
    if (!m[4]) stack.push(el);
  }
  if (pos !== body.length) throw new Error(`not well-formed at offset ${pos}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  const [root, ...rest] = stack[0]!.children;
  if (!root || rest.length > 0) throw new Error('an XML document has exactly one root element');
  return root;
}
