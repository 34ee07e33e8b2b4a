import { defineCodes } from './code-table.js';

/** Codes for problems found before any dialect rule runs: reading, parsing and schema validation. */
export const genericCodes = defineCodes({
  'io/unreadable': {
    severity: 'error',
    title: 'The file could not be read.',
    explanation:
      'Reading the file failed: permission denied, a dangling symbolic link, a path that went missing, an I/O error. The message says which.',
  },
  'io/not-a-regular-file': {
    severity: 'error',
    title: 'A checkpoint path is not a regular file.',
    explanation:
      'ckpt reads only regular files. A FIFO, socket, character or block device (`/dev/zero`) or a directory where a file is expected is reported with its type and never read: reading it could block forever or never end. Put the real file back. A path named on the command line that is not a regular file makes the command exit 3.',
  },
  'io/too-large': {
    severity: 'error',
    title: 'A checkpoint file is bigger than the read limit.',
    explanation:
      'Each file is checked against the limit (default 64 MiB) before a byte is read, so a runaway file cannot exhaust memory. The message names its size and the limit. Real checkpoints are far smaller; if yours is not, raise the limit with `--max-file-size <bytes|64MiB>` or `CKPT_MAX_FILE_SIZE`.',
  },
  'io/symlink-loop': {
    severity: 'error',
    title: 'A checkpoint path is a symbolic link loop.',
    explanation:
      'Resolving the path met too many symbolic links (ELOOP): a link points, directly or not, at itself. The file cannot be read; replace the link with the file.',
  },
  'io/outside-project': {
    severity: 'error',
    title: 'A checkpoint path leads outside the project through a symbolic link.',
    explanation:
      '`status`, `resume` and the viewer read only files whose real path is inside the project folder, so a link to a file or folder elsewhere (`/etc/passwd`, a home directory) is never read or shown: the finding names the link, not what it points to. Copy the file into the project instead of linking it.',
  },
  'parse/invalid-utf8': {
    severity: 'error',
    title: 'The file is not valid UTF-8.',
    explanation:
      'Checkpoint files are UTF-8 text. Invalid bytes are not silently replaced: the file is ignored for state until it is fixed.',
  },
  'parse/bom': {
    severity: 'warning',
    title: 'The file starts with a byte-order mark.',
    explanation:
      'JSON.parse in the original tools rejects a leading U+FEFF. ckpt strips one BOM to go on reading, and reports it so the file can be rewritten without it.',
  },
  'parse/empty-file': {
    severity: 'error',
    title: 'The file is empty.',
    explanation: 'An empty checkpoint usually means an interrupted in-place write. It is ignored for state.',
  },
  'parse/invalid-json': {
    severity: 'error',
    title: 'The file is not valid JSON.',
    explanation:
      'A malformed checkpoint is ignored for state (never treated as a completed task) and reported at the first position where the JSON breaks.',
  },
  'parse/duplicate-key': {
    severity: 'error',
    title: 'An object has the same key twice.',
    explanation:
      'JSON.parse silently keeps the last value of a duplicated key, so two tools may read the file differently. Remove one of them.',
  },
  'parse/too-deep': {
    severity: 'error',
    title: 'The document nests deeper than ckpt reads.',
    explanation: 'Values nested deeper than 256 levels are not checkpoints; the file is ignored for state.',
  },
  'parse/number-out-of-range': {
    severity: 'error',
    title: 'A JSON number is too large to represent.',
    explanation:
      'A number such as `1e400` is beyond what a double holds: JSON.parse reads it as Infinity and JSON.stringify writes it back as `null`, so the value would silently change. Write a number within ±1.7976931348623157e308.',
  },
  'parse/invalid-jsonl-line': {
    severity: 'error',
    title: 'A line of a JSONL file is not valid JSON.',
    explanation:
      'Every complete line of a JSONL log must be one JSON value. A corrupt complete line fails replay closed.',
  },
  'parse/torn-jsonl-tail': {
    severity: 'warning',
    title: 'The last line of a JSONL file has no newline.',
    explanation:
      'A final fragment without a newline is what a crash during an append leaves. Replay discards it; the next append truncates it.',
  },
  'parse/invalid-env-line': {
    severity: 'error',
    title: 'A line of an env file cannot be parsed.',
    explanation:
      'Env files hold `KEY=value`, `KEY="value"` (a backslash escapes `\\\\`, `\\"`, `$` and a backquote, and is literal before anything else) or `KEY=\'value\'` lines, optionally after `export `, several separated by whitespace on one line as a shell allows (`pid=1 host=a`), with an optional `# comment` after whitespace; `#` comment lines and blank lines; LF or CRLF line ends. Anything else (an unquoted value holding quotes, a `$` that is not a `$NAME` reference (braced or not), a backquote, a backslash or one of `;&|<>()`, text after a closing quote, a line without `=`) makes the file unparsable, which is a stop condition.',
  },
  'parse/repeated-env-key': {
    severity: 'warning',
    title: 'An env file sets the same key twice.',
    explanation:
      "A shell sourcing the file keeps the last value, and so does ckpt. A file copied to *.tmp with a line appended and renamed (the skill's atomic write done by hand) looks like this; rewrite it with each key once.",
  },
  'parse/unquoted-space': {
    severity: 'warning',
    title: 'An unquoted env value contains a space.',
    explanation:
      'ckpt reads the whole value up to an optional `# comment`, but a shell sourcing the file would assign only the first word and run the rest as a command. Quote the value.',
  },
  'schema/required': {
    severity: 'error',
    title: 'A required field is missing.',
    explanation:
      'The original tool always writes this field; a document without it was not written by that tool.',
  },
  'schema/type': {
    severity: 'error',
    title: 'A value has the wrong type.',
    explanation: 'The value is not of the type the schema names.',
  },
  'schema/enum': {
    severity: 'error',
    title: 'A value is not one of the allowed values.',
    explanation: 'The field takes one of a fixed set of values; the message lists them.',
  },
  'schema/const': {
    severity: 'error',
    title: 'A value differs from the only allowed value.',
    explanation: 'The field must hold exactly the value the message names.',
  },
  'schema/format': {
    severity: 'error',
    title: 'A value does not have the required format.',
    explanation:
      'Timestamps are RFC 3339 date-times with `T` and a time zone, such as `2026-11-29T07:13:00Z`.',
  },
  'schema/pattern': {
    severity: 'error',
    title: 'A string does not match the required pattern.',
    explanation: 'The field has a fixed shape (ids, hashes, flags); the message gives the pattern.',
  },
  'schema/range': {
    severity: 'error',
    title: 'A number is out of range.',
    explanation: 'The field has a minimum or maximum value.',
  },
  'schema/length': {
    severity: 'error',
    title: 'A string, array or object is too long or too short.',
    explanation: 'The field has a minimum or maximum length or number of items.',
  },
  'schema/unknown-field': {
    severity: 'error',
    title: 'A field that the schema does not name (reported with --strict).',
    explanation:
      'The real tools add fields over time, so unknown fields are valid by default. `ckpt validate --strict` reports them, to catch typos in hand-written files.',
  },
  'schema/newer-minor': {
    severity: 'warning',
    title: 'The document names a newer minor version of its schema than ckpt knows.',
    explanation:
      'Its `$schema` names the same major version with a higher minor: a newer minor only adds optional fields, so ckpt reads the document and checks what it knows; fields added since are kept but not checked. Upgrade ckpt to check them.',
  },
  'schema/unsupported-major': {
    severity: 'error',
    title: 'The document names another major version of its schema.',
    explanation:
      'Its `$schema` names a different major version than ckpt reads: the meaning of its fields may have changed, so the document is not checked against the schema and not used for state.',
  },
  'schema/invalid': {
    severity: 'error',
    title: 'The document does not match its schema.',
    explanation: 'A schema rule without a more specific code failed; the message says which.',
  },
  'detect/unknown-kind': {
    severity: 'warning',
    title: 'The file looks like a checkpoint, but ckpt cannot tell which kind.',
    explanation: 'The path matches a dialect, but the content matches none of its document kinds.',
  },
});
