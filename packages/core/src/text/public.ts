// Public API of the output-safety helpers, re-exported by @ckpt/core's index.
export {
  describeSecretPatterns,
  redactionMark,
  redactSecrets,
  redactSecretsIn,
  SECRET_PATTERNS,
  type SecretPattern,
  secretIn,
  secretInValue,
  secretPatternIn,
  secretRefusal,
} from './secrets.js';
export { shellCommand, shellQuote } from './shell-quote.js';
export {
  escapeTerminal,
  escapeTerminalLines,
  forTerminal,
  hasTerminalControl,
  mapStrings,
  stringifyJson,
} from './terminal-escape.js';
export { hasNoText, valueText } from './value-text.js';
