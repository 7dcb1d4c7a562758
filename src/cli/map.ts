/** `map [--format mermaid|dot|json] [--changes] <folder>`: a pulled folder's flow map, from its files alone. */
import { dotFlowMap } from '../core/flow-map/dot';
import { folderFlowMap } from '../core/flow-map/folder';
import { mermaidFlowMap } from '../core/flow-map/mermaid';
import { formatOption } from './arguments';
import { EXIT, type Command } from './command';
import { folderArgument, pulledFolder } from './service';

export const MAP_FORMATS = ['mermaid', 'dot', 'json'] as const;

export const mapCommand: Command = {
  name: 'map',
  summary:
    "print a pulled folder's flow map: its resources, the references between them and their problems (nothing is sent, no token needed)",
  usage: '[--format mermaid|dot|json] [--changes] <folder>',
  details: [
    "--format mermaid  (the default) a Mermaid flowchart, which code hosts draw in a pull request's comment",
    '--format dot      a Graphviz graph (dot -Tsvg)',
    '--format json     { "nodes": [ { id, segment, name } ], "edges": [ { from, to, kind } ], "problems": [ … ] }',
    '--changes         mark the resources the folder\'s plan would create or update (Mermaid: the class "changed"; DOT: a bold',
    '                  outline; JSON: "changed": [ node ids ]), read from the files and the manifest alone',
    "Edges: next, exit (a prompt's next_prompt_id, exit_prompt_id), intent (an intent's ai_prompt_id), parent, action,",
    'integration, function. A reference to a resource the folder does not hold is drawn dashed to a missing node.',
    'Exits 0 when the map is printed, whatever problems it shows.',
  ],
  options: { format: { type: 'string' }, changes: { type: 'boolean' } },
  async run(args, context) {
    const format = formatOption(args.values.format, MAP_FORMATS, 'map');
    const folder = await pulledFolder(folderArgument(args, context, 'map'));
    const changes = args.values.changes === true;
    const { map, changed, unread } = await folderFlowMap(folder.io, folder.manifest, { changes });
    for (const problem of unread)
      context.err(`note: ${problem}; its resource is not on the map, and references to it are not checked`);
    if (format === 'json') context.document(JSON.stringify(changes ? { ...map, changed: [...changed] } : map, null, 2));
    else context.document((format === 'dot' ? dotFlowMap : mermaidFlowMap)(map, { changed }).trimEnd());
    return EXIT.ok;
  },
};
