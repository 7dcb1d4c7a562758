import * as assert from 'node:assert/strict';
import { kindById } from '../../src/core/resources';
import { type FolderEntry } from '../../src/core/tenant/folder-io';
import { MemoryFolder } from '../../src/core/tenant/memory-folder';
import { folderLayout, isFolderExtra, type FolderLayout } from '../../src/core/tenant/folder-layout';
import { writeManifest } from '../../src/core/tenant/manifest-writer';
import { writeResource } from '../../src/core/tenant/representation';

/** Entries from paths: a trailing `/` makes a folder, `@` a link, `|` something else; parents are added as folders. */
function entries(...paths: string[]): FolderEntry[] {
  const found = new Map<string, FolderEntry['type']>();
  for (const written of paths) {
    const type = written.endsWith('/')
      ? 'folder'
      : written.endsWith('@')
        ? 'link'
        : written.endsWith('|')
          ? 'other'
          : 'file';
    const path = type === 'file' ? written : written.slice(0, -1);
    const segments = path.split('/');
    for (let end = 1; end < segments.length; end++) found.set(segments.slice(0, end).join('/'), 'folder');
    found.set(path, type);
  }
  return [...found].map(([path, type]) => ({ path, type })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

function layout(...paths: string[]): FolderLayout {
  return folderLayout(entries(...paths));
}

/** The one problem the folder has. */
function problem(...paths: string[]): string {
  const { problems } = layout(...paths);
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return problems[0]?.message ?? '';
}

describe('tenant folders: what every entry of a folder is', () => {
  it('gives the names a pull writes the verdicts the general rules give: devices, READMEs and misplaced parts included', () => {
    const found = layout(
      'ai_prompts/a-.json',
      'ai_prompts/a-.system.md',
      'ai_prompts/readme.json',
      'intents/x.json',
      'intents/x.system.md',
      'ai_prompts/con.json',
      'ai_prompts/lpt1.system.md',
    );
    assert.deepEqual(
      found.resources.map((r) => [r.base, r.parts]),
      [
        ['ai_prompts/a-', ['system']],
        ['intents/x', []],
      ],
    );
    assert.deepEqual(
      found.problems.map((p) => p.path),
      ['ai_prompts/con.json', 'ai_prompts/lpt1.system.md', 'intents/x.system.md'],
    );
    assert.match(found.problems[0]?.message ?? '', /device name \(CON\)/);
    assert.match(found.problems[2]?.message ?? '', /only prompts have text files/);
  });

  it('finds the tenant and each resource with its text parts, in scan order, and no problem', () => {
    const found = layout(
      'convai-tenant.json',
      'tenant.json',
      'intents/b.json',
      'ai_prompts/order-triage.json',
      'ai_prompts/order-triage.system.md',
      'ai_prompts/order-triage.user_prompt.md',
      'ai_prompts/plain.json',
      'integrations/crm.json',
      'ai_prompts/a.b.json',
      'ai_prompts/a.b.assistant.md',
    );
    assert.deepEqual(found.problems, []);
    assert.deepEqual(found.resources, [
      { segment: 'tenants', base: 'tenant', file: 'tenant.json', parts: [] },
      { segment: 'integrations', base: 'integrations/crm', file: 'integrations/crm.json', parts: [] },
      { segment: 'ai_prompts', base: 'ai_prompts/a.b', file: 'ai_prompts/a.b.json', parts: ['assistant'] },
      {
        segment: 'ai_prompts',
        base: 'ai_prompts/order-triage',
        file: 'ai_prompts/order-triage.json',
        parts: ['user_prompt', 'system'],
      },
      { segment: 'ai_prompts', base: 'ai_prompts/plain', file: 'ai_prompts/plain.json', parts: [] },
      { segment: 'intents', base: 'intents/b', file: 'intents/b.json', parts: [] },
    ]);
  });

  it('finds no problem in what a pull writes', async () => {
    const io = new MemoryFolder();
    await writeManifest(io, { connection: 'c', baseUrl: 'http://x', tenantId: 1, resources: [] });
    await writeResource(io, kindById('tenant'), 1, { name: 'T' }, 'tenant');
    await writeResource(
      io,
      kindById('prompt'),
      2,
      { name: 'Order Triage', system: 'Be brief.', user_prompt: 'Hi', assistant: null },
      'ai_prompts/order-triage',
    );
    await writeResource(io, kindById('intent'), 3, { name: 'Billing' }, 'intents/billing');
    const found = folderLayout(await io.walk());
    assert.deepEqual(found.problems, []);
    assert.deepEqual(
      found.resources.map((r) => [r.base, r.parts]),
      [
        ['tenant', []],
        ['ai_prompts/order-triage', ['user_prompt', 'system']],
        ['intents/billing', []],
      ],
    );
  });

  it('allows READMEs, dotfiles and dot-folders anywhere, without looking into dot-folders', () => {
    const found = layout(
      'README.md',
      'readme',
      'ReadMe.txt',
      '.gitignore',
      '.git/',
      '.git/config',
      '.vscode/settings.json',
      'ai_prompts/README.md',
      'ai_prompts/.DS_Store',
      'ai_prompts/.drafts/x.txt',
      '.env@',
    );
    assert.deepEqual(found, { resources: [], problems: [] });
  });

  it("takes a file the manifest lists, and its text parts, for a resource whatever its name, so an older pull's README is never an extra", () => {
    const pulled = new Set(['ai_prompts/readme-guide.json', 'datasources/readme.json', 'ai_prompts/.hidden.json']);
    const paths = [
      'README.md',
      'ai_prompts/README.md',
      'ai_prompts/readme-guide.json',
      'ai_prompts/readme-guide.system.md',
      'datasources/readme.json',
      'ai_prompts/.hidden.json',
      'ai_prompts/.hidden.user_prompt.md',
      'ai_prompts/.drafts/x.json',
    ];
    const found = folderLayout(entries(...paths), pulled);
    assert.deepEqual(found.problems, []);
    assert.deepEqual(
      found.resources.map((r) => [r.file, r.parts]),
      [
        ['ai_prompts/.hidden.json', ['user_prompt']],
        ['ai_prompts/readme-guide.json', ['system']],
        ['datasources/readme.json', []],
      ],
    );
    assert.deepEqual(
      folderLayout(entries(...paths)),
      { resources: [], problems: [] },
      'without the manifest they are extras, as the contract has it',
    );
    assert.deepEqual(
      paths.filter((path) => isFolderExtra(path, pulled)),
      ['README.md', 'ai_prompts/README.md', 'ai_prompts/.drafts/x.json'],
    );
    assert.equal(isFolderExtra('datasources/readme.system.md', pulled), true, 'only a prompt has text parts');
  });

  it('suggests the kind a misnamed folder was meant as', () => {
    assert.equal(problem('intent/'), 'intent/: no kind of that name; did you mean "intents/"?');
    assert.equal(problem('prompts/'), 'prompts/: no kind of that name; did you mean "ai_prompts/"?');
    assert.equal(problem('functions/'), 'functions/: no kind of that name; did you mean "ai_functions/"?');
    assert.equal(problem('actions/'), 'actions/: no kind of that name; did you mean "ai_actions/"?');
    assert.equal(problem('AI_Prompts/'), 'AI_Prompts/: no kind of that name; did you mean "ai_prompts/"?');
    assert.equal(problem('datasourcs/'), 'datasourcs/: no kind of that name; did you mean "datasources/"?');
  });

  it('says where resources go for a folder that is like no kind, and looks no further into it', () => {
    const message = problem('notes/', 'notes/a.json', 'notes/deeper/b.txt');
    assert.match(
      message,
      /^notes\/: no kind of that name; resources go in tenant\.json and the kinds' folders \(integrations\/, ai_prompts\/, .*datasources\/\); a README or a dotfile may be kept there$/,
    );
  });

  it("suggests tenant.json or convai-tenant.json for a file near them, a kind's folder for a file named like one", () => {
    assert.equal(problem('Tenant.JSON'), 'Tenant.JSON: not part of a tenant folder; did you mean "tenant.json"?');
    assert.equal(problem('tenants.json'), 'tenants.json: not part of a tenant folder; did you mean "tenant.json"?');
    assert.equal(
      problem('convai_tenant.json'),
      'convai_tenant.json: not part of a tenant folder; did you mean "convai-tenant.json"?',
    );
    assert.equal(problem('intents'), "intents: a file where a kind's folder belongs; resource files go in intents/");
    assert.match(
      problem('greeting.json'),
      /^greeting\.json: not part of a tenant folder; resource files go in the kinds' folders \(.*\), the tenant's in tenant\.json; a README or a dotfile may be kept there$/,
    );
  });

  it("takes .json files in a kind's folder for resources, and refuses other extensions", () => {
    assert.equal(problem('intents/x.JSON'), 'intents/x.JSON: resource files end in ".json"; did you mean "x.json"?');
    assert.equal(problem('intents/x.Json'), 'intents/x.Json: resource files end in ".json"; did you mean "x.json"?');
    assert.equal(problem('intents/x.jsno'), 'intents/x.jsno: resource files end in ".json"; did you mean "x.json"?');
    assert.equal(
      problem('intents/x.txt'),
      'intents/x.txt: resource files end in ".json"; a README or a dotfile may be kept there',
    );
    assert.equal(
      problem('intents/x'),
      'intents/x: resource files end in ".json"; a README or a dotfile may be kept there',
    );
    assert.deepEqual(layout('intents/x.JSON').resources, []);
  });

  it('takes Markdown files for texts in ai_prompts only', () => {
    assert.equal(
      problem('intents/x.json', 'intents/x.system.md'),
      'intents/x.system.md: only prompts have text files; resource files end in ".json"; a README or a dotfile may be kept there',
    );
    assert.match(
      problem('agents/x.json', 'agents/x.user_prompt.md'),
      /^agents\/x\.user_prompt\.md: only prompts have text files/,
    );
    assert.deepEqual(layout('intents/x.json', 'intents/x.system.md').resources, [
      { segment: 'intents', base: 'intents/x', file: 'intents/x.json', parts: [] },
    ]);
  });

  it('suggests the text a misnamed prompt text file was meant as', () => {
    assert.equal(
      problem('ai_prompts/x.json', 'ai_prompts/x.sytem.md'),
      'ai_prompts/x.sytem.md: not a prompt\'s text file; did you mean "x.system.md"?',
    );
    assert.equal(
      problem('ai_prompts/x.json', 'ai_prompts/x.System.md'),
      'ai_prompts/x.System.md: not a prompt\'s text file; did you mean "x.system.md"?',
    );
    assert.equal(
      problem('ai_prompts/x.json', 'ai_prompts/x.user_prompt.MD'),
      'ai_prompts/x.user_prompt.MD: not a prompt\'s text file; did you mean "x.user_prompt.md"?',
    );
    assert.equal(
      problem('ai_prompts/x.json', 'ai_prompts/x.md'),
      'ai_prompts/x.md: not a prompt\'s text file; those are named after the prompt\'s file and the text, such as "x.system.md" (user_prompt, system, assistant); a README or a dotfile may be kept there',
    );
    assert.deepEqual(layout('ai_prompts/x.json', 'ai_prompts/x.sytem.md').resources, [
      { segment: 'ai_prompts', base: 'ai_prompts/x', file: 'ai_prompts/x.json', parts: [] },
    ]);
  });

  it('names the missing file of a text part, and the file meant when only the case differs', () => {
    assert.equal(
      problem('ai_prompts/gone.system.md'),
      'ai_prompts/gone.system.md: a text of "gone.json", which is missing; restore that file or remove this one',
    );
    assert.equal(
      problem('ai_prompts/alpha.json', 'ai_prompts/Alpha.system.md'),
      'ai_prompts/Alpha.system.md: a text of "Alpha.json", which is missing; did you mean "alpha.system.md"?',
    );
  });

  it("refuses sub-folders of a kind's folder, and looks no further into them", () => {
    assert.equal(
      problem('ai_prompts/drafts/', 'ai_prompts/drafts/x.json'),
      "ai_prompts/drafts/: a kind's folder holds no sub-folders; its resource files go directly in ai_prompts/",
    );
  });

  it('refuses symbolic links and other entries that are neither file nor folder, wherever they are', () => {
    assert.equal(
      problem('ai_prompts@'),
      'ai_prompts: a symbolic link; a tenant folder holds none, so nothing is read through it',
    );
    assert.equal(
      problem('intents/x.json@'),
      'intents/x.json: a symbolic link; a tenant folder holds none, so nothing is read through it',
    );
    assert.equal(
      problem('README.md@'),
      'README.md: a symbolic link; a tenant folder holds none, so nothing is read through it',
    );
    assert.equal(
      problem('intents/x.json|'),
      'intents/x.json: neither a file nor a folder (a pipe, socket or device); a tenant folder holds only files and folders',
    );
    assert.deepEqual(layout('intents/x.json@').resources, []);
  });

  it('refuses names a file system would refuse or change, with the name meant where there is one', () => {
    assert.equal(problem('ai_prompts/con.json'), 'ai_prompts/con.json: is a Windows device name (CON)');
    assert.equal(
      problem('ai_prompts/x.json', 'ai_prompts/Nul.system.md'),
      'ai_prompts/Nul.system.md: is a Windows device name (NUL)',
    );
    assert.equal(problem('aux/'), 'aux/: is a Windows device name (AUX)');
    assert.equal(
      problem('intents/x.json.'),
      'intents/x.json.: has a name ending in a dot or a space ("x.json."), which Windows drops; did you mean "x.json"?',
    );
    assert.equal(
      problem('intents /'),
      'intents /: has a name ending in a dot or a space ("intents "), which Windows drops; did you mean "intents/"?',
    );
    assert.equal(problem('intents/a:b.json'), 'intents/a:b.json: holds :, which Windows does not allow in a name');
    assert.match(problem('intents/a\\b.json'), /^intents\/a\\b\.json: holds a backslash/);
    assert.deepEqual(layout('ai_prompts/con.json').resources, []);
  });

  it('names both entries of a folder that would be one file on Windows and macOS', () => {
    const found = layout('ai_prompts/alpha.json', 'ai_prompts/Alpha.json', 'ai_prompts/beta.json');
    assert.deepEqual(found.problems, [
      {
        path: 'ai_prompts/Alpha.json',
        message:
          'ai_prompts/Alpha.json: would be one file with "ai_prompts/alpha.json" on Windows and macOS; rename one',
      },
    ]);
    assert.equal(
      problem('intents/caf\u00e9.json', 'intents/cafe\u0301.json'),
      'intents/cafe\u0301.json: would be one file with "intents/caf\u00e9.json" on Windows and macOS; rename one',
    );
    assert.equal(
      layout('ai_prompts/a.json', 'intents/a.json').problems.length,
      0,
      'the same name in two folders is fine',
    );
  });

  it('sorts problems by path', () => {
    const { problems } = layout('zz.txt', 'intents/x.txt', 'ai_prompts/y.txt', 'ai_prompts/a.txt', 'actions/');
    assert.deepEqual(
      problems.map((p) => p.path),
      ['actions/', 'ai_prompts/a.txt', 'ai_prompts/y.txt', 'intents/x.txt', 'zz.txt'],
    );
  });
});
