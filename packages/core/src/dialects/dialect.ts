import type { CodeTable } from '../findings/code-table.js';
import type { Finding } from '../findings/finding.js';
import type { SourceMap } from '../parse/source-map.js';
import type { RunFacts } from '../view/run-view.js';

/** The four dialects ckpt reads and writes. */
export type DialectId = 'team' | 'resumable' | 'ulpi' | 'agent-context';

/** A parsed, schema-checked document, as the per-file pipeline leaves it. */
export interface CheckedDocument {
  /** Absolute path. */
  readonly path: string;
  /** Path as reports show it (relative to where the user pointed ckpt, `/` separators). */
  readonly file: string;
  /** `<dialect>/<kind>`, e.g. `team/task-event`; undefined when the file is not a known kind. */
  readonly kind: string | undefined;
  readonly text: string | undefined;
  /** The parsed value; for env files the null-prototype key/value object; for JSONL an array of line values. */
  readonly value: unknown;
  /** True when the document parsed cleanly and may be used for state (a malformed file never is). */
  readonly usable: boolean;
  readonly sourceMap: SourceMap | undefined;
  readonly findings: readonly Finding[];
}

/** What a dialect's `checkUnit` tells its `checkTree` about one unit: plain data, the dialect's own shape. */
export type UnitFacts = Readonly<Record<string, string | number | boolean>>;

/** A directory entry as `readdir` with file types gives it (a `Dirent` is one). */
export interface ListedEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** What a tree-level check gets: cached documents, read once per run. */
export interface TreeContext {
  /** Reads, parses and schema-checks a file (cached): the same object the per-file pipeline produced. */
  document(absPath: string): CheckedDocument;
  /**
   * Optional: `document` of each of `absPaths`, in order, which are entries of the directory `absDir` (the caller
   * makes sure of it). A context that keeps documents between loads (the project index) returns the same array
   * while none of them changed, so a loader can tell an unchanged folder by identity. Undefined: call `document`.
   */
  documents?(absDir: string, absPaths: readonly string[]): readonly CheckedDocument[];
  /** The display path of an absolute path. */
  display(absPath: string): string;
  /** When set, loaders read no file whose real path is outside this directory (`io/outside-project`). */
  readonly confineTo?: string;
  /**
   * Optional: the tree rules are done with these documents, so the context may drop them from its cache
   * (`validate` then keeps only their findings and does not hold every document of a large tree at once).
   * A later `document` call for such a path reads the file again.
   */
  release?(absPaths: readonly string[]): void;
  /**
   * Optional: a directory's entries, in any order, when the caller already listed it (`validate`'s file walk, the
   * project index): tree rules then do not list it again. Undefined when not known: list it.
   */
  listing?(absDir: string): readonly ListedEntry[] | undefined;
  /**
   * Optional: the facts being derived depend on the clock or on other processes (a temp file's age, whether a
   * lock's holder is alive), so a context that keeps derived runs between loads (the project index) must derive
   * them again at every read instead of serving them from its cache.
   */
  volatile?(): void;
  /**
   * True for a context that loads once (`loadProject`): loaders keep nothing derived from its documents by their
   * identity for a next load (no memo of 100k event records, sources, tasks and views that only a later load could
   * use). Unset: a context that loads again (the project index).
   */
  readonly loadsOnce?: boolean;
  /**
   * True for a one-shot load whose caller reads only each run's one-line facts and attention (`summarizeRun`,
   * `attentionOf`; `LoadProjectOptions.summariesOnly`): a loader may leave out of a run's units, phases and resume
   * items what neither reads (a unit's inputs, artifacts and attempts, the plan's `skip`). Set only with `loadsOnce`.
   */
  readonly summariesOnly?: boolean;
}

/**
 * One dialect's plug-in: its codes, how it tells its kinds apart by content, its per-document and per-tree
 * rules, and how it finds and loads runs. Adding a dialect means one folder exporting one of these.
 */
export interface Dialect {
  readonly id: DialectId;
  readonly title: string;
  readonly codes: CodeTable;
  /** Optional: hand-written Markdown the dialect's spec page shows after its document table. */
  readonly specSection?: string;
  /** Picks the kind of a parsed document among candidates (catalog kinds, or all the dialect's kinds). */
  detectKind?(value: unknown, candidates: readonly string[]): string | undefined;
  /** Semantic rules that need only the document itself. Pure. */
  checkDocument?(doc: CheckedDocument): Finding[];
  /**
   * Optional: the document's raw `schema/*` findings to keep, given its semantic findings, for a dialect whose
   * rule explains a problem better than ajv at the same place (e.g. one compatibility finding instead of ajv's
   * type + const errors for an unsupported version). Without it, every schema finding is kept.
   */
  filterSchemaFindings?(
    schemaFindings: readonly Finding[],
    semantic: readonly Finding[],
    doc: CheckedDocument,
  ): Finding[];
  /**
   * Optional: what `validate`'s per-file pass keeps of a document of this dialect for the tree rules (it drops the
   * document as soon as this exists): the value as the tree rules read it, and the text when they read it.
   * Without it, the whole value and no text. Kind, usability and findings are always kept, and positions are
   * found again from the file when a tree rule places a finding. Return the document's own value and text to
   * keep it whole.
   */
  treeRecord?(doc: CheckedDocument): { value: unknown; text: string | undefined };
  /**
   * The root of the tree a file belongs to (e.g. `.team/runs`), for tree-level rules. By the file's folder and
   * kind only, never its name (`validate` asks once per folder and kind).
   */
  rootOf?(absPath: string, kind: string | undefined): string | undefined;
  /**
   * Optional, with `checkUnit`: whether a directory directly in a root is a unit of the tree rules (team: a run
   * directory in `.team/runs`), i.e. its findings come from its own files alone (`checkUnit`), and only a few
   * facts about each unit from the rest of the root (`checkTree`). `validate` then checks a unit in one piece,
   * on any thread, and drops its documents. By its path alone: it is asked of every directory walked.
   */
  isUnitDir?(absDir: string): boolean;
  /**
   * The tree rules of one unit (`isUnitDir`), and what `checkTree` needs to know of it (structured-clonable:
   * it may be found on another thread). `pass` lives for the units one thread checks in one pass: the dialect may
   * keep there what its units share (e.g. the hashes of project files several runs approve).
   */
  checkUnit?(
    unitDir: string,
    ctx: TreeContext,
    pass: Map<string, unknown>,
  ): { findings: Finding[]; facts: UnitFacts };
  /**
   * Semantic rules across the files of one tree (duplicate terminal events, stale approvals...). A dialect with
   * units (`checkUnit`) is given the facts of the units already checked (by directory): it then finds what spans
   * units, and checks any other unit of the root itself. It finds nothing on a given unit's directory or the files
   * in it (`checkUnit` did), so that `validate` can report a unit before the rest of its root is known.
   */
  checkTree?(root: string, ctx: TreeContext, units?: ReadonlyMap<string, UnitFacts>): Finding[];
  /** Every root of this dialect under a project directory. */
  discover?(projectDir: string): string[];
  /** The runs under one root, as the facts of RunViews (core adds attention). */
  loadRunViews?(root: string, ctx: TreeContext): RunFacts[];
}
