/** The help of `--show-secrets`, the same on every command that shows file contents. */
export const SHOW_SECRETS_HELP =
  'show secret-looking values (tokens, keys, passwords) as written; by default they print as [REDACTED:<kind>]';
