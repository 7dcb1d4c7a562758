/**
 * Every time-out, concurrency bound, page size, delay, retention and size limit
 * of the extension and the command-line tool, written once, each row's comment
 * saying why it has its value (comments, not strings: the table is in the
 * extension's main bundle, which has a budget). A row that is also a setting
 * (package.json `contributes.configuration`) names it: the setting's default
 * is the row's value and its bounds are the row's; `test/unit/limits.test.ts`
 * holds package.json to this table both ways, and the settings readers
 * (src/shared/settings.ts) take both from here.
 */

export interface SettingBounds {
  /** The setting's full name, e.g. `convai.requestTimeoutSeconds`. */
  readonly name: string;
  readonly minimum: number;
  /** Absent when the setting has no upper bound. */
  readonly maximum?: number;
  /** Whether the setting takes whole numbers only (`"type": "integer"`). */
  readonly integer: boolean;
}

export interface Limit {
  readonly value: number;
  readonly unit: 'ms' | 'seconds' | 'requests' | 'connections' | 'items' | 'characters' | 'steps' | 'levels' | 'turns';
  readonly setting?: SettingBounds;
}

export const LIMITS = {
  /**
   * The deadline of one request: long enough for a slow listing of a large tenant, short enough that a dead
   * connection is reported while the user still waits.
   */
  requestTimeout: {
    value: 30,
    unit: 'seconds',
    setting: { name: 'convai.requestTimeoutSeconds', minimum: 1, maximum: 600, integer: false },
  },
  /**
   * The longest Retry-After a read waits before asking again; a longer one is reported instead, as the user
   * would not wait for it.
   */
  maxRetryAfter: { value: 10_000, unit: 'ms' },
  /**
   * Requests started within one slice share one deadline signal (core/deadlines.ts): a pull sends thousands, and
   * each gets at most a slice more than its time-out.
   */
  deadlineSlice: { value: 250, unit: 'ms' },
  /**
   * Requests at once when a folder command, a drift check or the flow map reads a whole tenant, and when the
   * extension loads a tenant's listings or reloads the open documents a write covers: the floor of pull measures
   * the same, and more only queues at a single service.
   */
  tenantConcurrency: { value: 4, unit: 'requests' },
  /**
   * Connections a client keeps open to its service: above the tenant and test concurrency, so requests at once
   * never wait for a connection, and few enough for a service or proxy that counts them.
   */
  serviceConnections: { value: 8, unit: 'connections' },
  /**
   * How long an idle connection stays open for the next request: a user's next command within it skips the TLS
   * handshake, and a service that closes idle connections sooner is met by the client's one retry.
   */
  keepAlive: { value: 10_000, unit: 'ms' },
  /**
   * Resources a pull holds at once (details asked, then their files written): memory holds one batch's texts,
   * not a tenant's, and a batch is large enough to keep the requests going.
   */
  pullBatch: { value: 500, unit: 'items' },
  /**
   * Resources a pull must exceed before a worker writes its batches while the next are fetched: starting the worker
   * costs what writing a few batches does, on the cores the service may share, and a large tenant's pull spends as
   * long writing as fetching.
   */
  workerPull: { value: 5_000, unit: 'items' },
  /**
   * Manifest entries per step of a push's journal below which the push leaves the journal beside the manifest: a
   * step replayed at each read costs little, a rewrite of a large manifest much.
   */
  entriesPerJournalStep: { value: 100, unit: 'items' },
  /** Manifest lines written as one part: a large tenant's manifest is tens of megabytes, never held twice. */
  manifestPart: { value: 1_000, unit: 'items' },
  /** Folders a walk of a pulled folder reads at once: a tenant folder has a few, and many must not open together. */
  folderWalk: { value: 8, unit: 'items' },
  /**
   * Files a folder opened by the extension reads or stats at once: enough to keep the disk busy, few enough that a
   * large folder's scan leaves the thread pool to the rest of the extension host.
   */
  folderFiles: { value: 16, unit: 'items' },
  /**
   * How long a file must have been unchanged before its cached stat is trusted, on a clock of whole seconds: the
   * coarsest common file system's (FAT's two seconds), with room for a network share's.
   */
  coarseStatSettle: { value: 3_000, unit: 'ms' },
  /**
   * The same on a clock finer than a second (ext4, APFS, NTFS and most shares), which still moves in ticks of the
   * system's timer, at most Windows' 15.6 ms.
   */
  fineStatSettle: { value: 100, unit: 'ms' },
  /**
   * Prompt test and judge requests at once: each is a model call; the maximum keeps a suite from flooding the
   * service.
   */
  testConcurrency: {
    value: 4,
    unit: 'requests',
    setting: { name: 'convai.testConcurrency', minimum: 1, maximum: 16, integer: true },
  },
  /**
   * Suite runs in flight per request slot of the test concurrency: enough that a slot never idles while a run of
   * several requests waits for an answer.
   */
  runsPerSlot: { value: 4, unit: 'items' },
  /** A Testing view run that can send more requests than this asks first: model calls cost money. */
  confirmRequestsAbove: {
    value: 500,
    unit: 'requests',
    setting: { name: 'convai.confirmRequestsAbove', minimum: 0, integer: true },
  },
  /**
   * The most requests that run a test or write a command-line `test` run may send without --max-requests: a CI job
   * has nobody to ask, and a suite mistyped to thousands of calls would spend before anyone saw it.
   */
  testRequests: { value: 1_000, unit: 'requests' },
  /**
   * Children the ConvAI tree shows under one node before it pages by groups and name ranges: VS Code slows down
   * with thousands of children (extension contract, "Large tenants").
   */
  treePageSize: {
    value: 500,
    unit: 'items',
    setting: { name: 'convai.treePageSize', minimum: 50, maximum: 5000, integer: true },
  },
  /**
   * The pause in typing after which checks run (validation, references, request definitions, suites and judges):
   * typing an id digit by digit does not warn of each prefix, nor parse the document on each keystroke.
   */
  checkDelay: { value: 300, unit: 'ms' },
  /**
   * The shortest time between two counts shown in a progress (done of total), in VS Code and on a terminal: each
   * report crosses to the workbench or rewrites a line, and a pull of a large tenant counts tens of thousands of
   * resources; ten a second still read as moving.
   */
  progressReports: { value: 100, unit: 'ms' },
  /**
   * How long a plan preview's tab may take to show after Markdown's command returned, which opens the preview
   * afterwards.
   */
  planTabShows: { value: 5_000, unit: 'ms' },
  /**
   * The pause after a burst of file changes before a pulled folder's changes or a flow map are read again: a
   * pull writes many files at once.
   */
  settleDelay: { value: 300, unit: 'ms' },
  /**
   * A document's read within this time of its stat reuses the stat's GET: VS Code stats and reads a document it
   * opens at once.
   */
  freshRead: { value: 1500, unit: 'ms' },
  /**
   * Read-only texts (previews, compares, service versions) kept beyond those open: each can be a whole resource,
   * and nobody goes back to dozens.
   */
  keptReadOnlyTexts: { value: 50, unit: 'items' },
  /** Rows Go to Resource shows for a typed word: enough to choose from, few enough for the quick pick to draw at once. */
  goToResults: { value: 100, unit: 'items' },
  /**
   * Reference targets completion offers at once: typing narrows them, as the list is marked incomplete and VS Code
   * asks again.
   */
  completionItems: { value: 50, unit: 'items' },
  /** Recent values remembered per input of Test Prompt and Execute Action, offered again in their forms. */
  recentInputs: { value: 10, unit: 'items' },
  /** Runs the history keeps per resource: enough to compare a day's work, small enough for global storage. */
  runsPerResource: { value: 30, unit: 'items' },
  /** Resources the run history keeps runs of, the least recently run dropped first. */
  historyResources: { value: 100, unit: 'items' },
  /** Longest string of a recorded run; longer answers are clipped so the history stays small. */
  historyStringLength: { value: 20_000, unit: 'characters' },
  /**
   * The longest service reason put in a message: a response body can be any size, and a notification must stay
   * readable.
   */
  serviceMessage: { value: 500, unit: 'characters' },
  /** Nesting followed into a body's `{error: {message}}` shapes: enough for real services; a hostile body cannot exhaust the stack. */
  serviceMessageNesting: { value: 4, unit: 'levels' },
  /** Errors read along a failure's causes for its code: undici nests a few; a cycle or a huge AggregateError stops here. */
  errorCauses: { value: 8, unit: 'items' },
  /** The errors of one AggregateError read (a connection's attempts, one per address): the first few name the cause. */
  aggregateErrors: { value: 4, unit: 'items' },
  /** Changes a promotion's confirmation lists by name: a modal dialog taller than the window hides its buttons. */
  promotionListed: { value: 20, unit: 'items' },
  /**
   * The longest text an input of Test Prompt or Execute Action takes: the form's maxlength, and the bound on
   * what its page may send.
   */
  runInput: { value: 100_000, unit: 'characters' },
  /**
   * A plan as a pull request's comment: GitHub refuses a comment over 65,536 characters; the rest is room for
   * what CI adds around it.
   */
  planComment: { value: 60_000, unit: 'characters' },
  /**
   * Steps of the line diff's search (diagonals tried plus lines compared) before it shows a whole replacement:
   * tens of milliseconds.
   */
  diffWork: { value: 4_000_000, unit: 'steps' },
  /**
   * Edits the line diff's search may find before it shows a whole replacement: its memory grows with their
   * square.
   */
  diffEdits: { value: 1_000, unit: 'items' },
  /** Deeper than any suite or answer means to nest: what recurses into a value stays far within the stack. */
  jsonDepth: { value: 100, unit: 'levels' },
  /**
   * The largest compiled program of a user's pattern: matching takes the text's length times it, some 25 ms at
   * worst on an answer of a few thousand characters.
   */
  patternProgram: { value: 500, unit: 'steps' },
  /**
   * Compiled patterns kept: a case repeated a hundred times, or a schema checked against every key, compiles
   * once.
   */
  patternCache: { value: 500, unit: 'items' },
  /**
   * Schemas a JSON Schema check applies at most, plus schemaStepsPerPart for each part of the value: a schema
   * whose references double at every level would otherwise check for hours.
   */
  schemaSteps: { value: 10_000, unit: 'steps' },
  /**
   * What each array, object and scalar of the checked value adds to schemaSteps: a schema a person writes
   * applies a few to each part.
   */
  schemaStepsPerPart: { value: 10, unit: 'steps' },
  /**
   * The assistant answers a simulated call takes at most when its case sets no maxTurns: a short call's length,
   * so a caller that never ends costs little.
   */
  callTurns: { value: 8, unit: 'turns' },
  /**
   * The most maxTurns a simulated call may ask for: every turn sends requests, and a call longer than this has
   * lost its way.
   */
  mostCallTurns: { value: 50, unit: 'turns' },
  /**
   * The most times one thing is judged: a judged criterion (judgeRepeat), a judge file's label (repeat). Each is a
   * model call, and a majority of this many is as sure as calibration needs.
   */
  mostJudgements: { value: 15, unit: 'items' },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/**
 * A setting's value as the extension uses it: the row's value when the setting holds no usable number (not a number,
 * or a fraction where whole numbers are asked), else the number within the row's bounds.
 */
export function withinLimit(limit: Limit, raw: unknown): number {
  const bounds = limit.setting;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || (bounds?.integer === true && !Number.isInteger(raw)))
    return limit.value;
  if (!bounds) return raw;
  return Math.min(Math.max(raw, bounds.minimum), bounds.maximum ?? Number.POSITIVE_INFINITY);
}
