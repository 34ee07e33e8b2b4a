import pc from 'picocolors';

export type ColorMode = 'auto' | 'always' | 'never';
export type Colors = ReturnType<typeof pc.createColors>;

/** Colours on or off: `--color` wins, then NO_COLOR, then FORCE_COLOR, then whether the stream is a TTY. */
export function colorsFor(mode: ColorMode, stream: NodeJS.WriteStream = process.stdout): Colors {
  if (mode === 'always') return pc.createColors(true);
  if (mode === 'never') return pc.createColors(false);
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return pc.createColors(false);
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return pc.createColors(true);
  return pc.createColors(Boolean(stream.isTTY));
}
