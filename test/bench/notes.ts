// What each row of the bench's table measures and why its goal is what it is; printed under the table.

export const notesHeader: readonly string[] = [
  'Notes (candidate: the extension or the command-line tool as built; floor: the least any implementation must',
  'spend, measured beside it):',
];

export const extensionNotes: readonly string[] = [
  '- activation: in a fresh extension host of a real VS Code (code-server), `getExtension(...).activate()` (require of',
  '  the bundle and activate) vs `require()` of an esbuild bundle of `export * from "undici"` built with the options of',
  '  dist/extension.js. One pair per host, the order alternating per host, Node built-ins both load preloaded; the',
  '  figure is the median of the hosts\' ratios. Goal 1.5: issue 14\'s.',
  '- extension-host JS: the bytes of what a host loads at activation and its first request (dist/extension.js and',
  '  dist/undici.js) minus the undici-only bundle, in KB; dist/validators.js and dist/re2js.js load at the first check',
  '  and the first pattern, and are not counted. Goal +150 KB: issue 14\'s, kept by issue 29.',
  '- open: `openTextDocument` of a prompt not read before in that host, `convai:` vs a minimal file system provider',
  '  (readFile one GET, stat no request). Goal 1.5: work beyond one GET and formatting its answer fails it.',
  '- requests per open, per open + save: from the local service\'s request log, the requests on each opened (or',
  '  opened and saved) prompt\'s path during the whole session, what followed included. Goal 1: no more than the',
  '  floor\'s one GET per open, and GET and PUT per save. Timings alone cannot show a second GET: on loopback two',
  '  concurrent GETs take hardly longer than one, but a real service carries twice the load.',
  '- save: `TextDocument.save()` of a freshly opened prompt with an edited description; the floor GETs the service\'s',
  '  state, compares it with what it read (a safe save\'s conflict check) and PUTs. Goal 2: the same round trips plus',
  '  validating the document meet it.',
  '- listing: `workspace.fs.readDirectory` of a tenant\'s AI Prompts folder of 5,000, the ConvAI listings dropped',
  '  (`convai.refresh`) before each; the floor sends one GET of the list. Goal 1.5: one GET and a linear pass meet it.',
  '- validate: `validateDocument("ai_prompts", value)` of a prompt with 200 KB of system text and 200 function',
  '  definitions vs `JSON.parse` of its 300 KB text, in plain Node, schemas compiled beforehand, in CPU time (both',
  '  are synchronous; the wall clock also counted waits for a core on a busy machine). Goal 3: a check that',
  '  walks the document once (and parses the function definitions\' JSON text once) meets it.',
  '- expand: a click on the twistie of a tenant\'s AI Prompts (5,000 prompts, its list loaded with the tenant, as the',
  '  count beside it shows) until the first prompt rows are in the page and a frame has passed, timed in the page;',
  '  the floor is a minimal TreeDataProvider (a view of the bench\'s own) whose rows show the same label, description,',
  '  tooltip, icon, resource URI and command. Each tenant is expanded once per window. Goal 2: building the items in',
  '  one pass meets it; work per item beyond that (re-validating, re-sorting, one lookup per row) does not.',
  '- open, save, listing and expand pair candidate and floor, alternating who goes first, after warm-ups; the figure',
  '  is the ratio of the medians of all sessions\' samples.',
];

export const folderNotes: readonly string[] = [
  '- pull, pull again, plan, drift: `node dist/cli.js pull --url … --tenant … <folder>` of a tenant of 1,000 prompts',
  '  (a local service of its own) into a new folder, the same again into that unchanged folder, then `plan <folder>`',
  '  and `drift <folder>` of it, each a fresh process timed from spawn to exit. Pull\'s floor (test/bench/floor-pull.mjs,',
  '  both pull rows) sends the same GETs four at a time with the undici the tool bundles, parses every answer and',
  '  writes the same files into a new folder; drift\'s is the same script sending the same GETs and writing nothing;',
  '  plan\'s (floor-read.mjs) reads every file of the folder and JSON.parses the .json ones. Node\'s start counts on',
  '  both sides. A warm-up of each checks that the floor and both pulls send the same requests (the service\'s log),',
  '  as drift and its floor do, and that the floor writes the first pull\'s bytes; every sample checks that the folder',
  '  holds them, plan that it plans nothing and drift that it finds none, else the bench cannot measure (exit 2).',
  '  Seven rounds, the order alternating; the figure is the ratio of the medians. Goals 1.3, 1.3, 1.5 and 1.3: the',
  '  issue\'s; a pull into an unchanged folder has no more to do than the first.',
  '- `npm run bench -- --only folders` measures these rows alone; `--only extension` the others; `--help`.',
];

export const mapNotes: readonly string[] = [
  '- map model: `node dist/cli.js map --format json <folder>` of a tenant of 1,000 resources (a local service\'s',
  '  "Map Tenant": 500 prompts in flows of ten, 200 intents, 150 actions, 40 integrations, 50 functions, 50 agents, 10',
  '  datasources, 1,500 references) pulled by the tool, against floor-read.mjs reading every file of the folder and',
  '  JSON.parsing the .json ones; a fresh process each, Node\'s start on both sides. Seven pairs after a warm-up, the',
  '  order alternating; the figure is the ratio of the medians. Goal 1.5: reading the folder once and one pass over',
  '  its references meet it.',
  '- map drawing: the map page (dist/webview/flow-map.js, in the frame the panel gives it, media/flow-map.css) in',
  '  headless Chromium with `acquireVsCodeApi` stubbed, timed in the page from posting that map\'s message (as the',
  '  panel posts it) until the page says "drawn" (laid out, drawn and painted); every resource must be a node. A time',
  '  bound, not a ratio: goal 2 s, the issue\'s. The floor, shown for scale, is a page that answers "drawn" after the',
  '  same frames and draws nothing. Each sample is a fresh browser context, so every layout is a first, cold one;',
  '  five pairs after a warm-up; the figure is the median.',
  '- `npm run bench -- --only map` measures these rows alone.',
];

export const suiteNotes: readonly string[] = [
  '- suite throughput: a suite of 100 test_prompt cases run by the core engine as `cli.js test` and the Testing view',
  '  run it (prepareSuite, runSuiteAt) at concurrency 4, against the same suite at concurrency 1 (serially), on a local service',
  '  of its own that answers every request after 40 ms; every case must pass, else the bench cannot measure. A',
  '  warm-up, then three rounds of both, the order alternating; the figure is the ratio of the medians. Goal 0.3:',
  '  the issue\'s; four runs in flight at once take a quarter of the serial time plus the engine\'s own work.',
  '- simulated calls: 10 simulated calls of 6 turns (a caller that never hangs up), each judged on 2 criteria by a',
  '  judge prompt of the local service: 10 × 13 requests, each call\'s one after another, at concurrency 4 against',
  '  serially, the same service and latency. Goal 0.3: calls overlap as cases do.',
  '- `npm run bench -- --only suites` measures these rows alone.',
];
