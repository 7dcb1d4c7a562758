/**
 * Apply Variant (contract: "Variant lab"): a variant's fields written into the prompt's whole JSON document as
 * unsaved edits, the rest of the document (and edits already there) kept. Nothing is saved: the user tries the
 * edits (a trial runs unsaved edits) and saves them once reviewed. The prompt's parts follow its document.
 */
import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import { SUITE_SUFFIX } from '../core/prompt-tests/suite';
import { withVariantFields } from '../core/variants/variant-apply';
import { namedTestFile, type SuiteConnections } from '../shared/suite-target';
import { labSuite, suiteWithVariants, type LabSuite } from './suite';

/** Writes the variant into the prompt's document; resolves with the document's URI. */
export async function applyTo(lab: LabSuite, name: string): Promise<vscode.Uri> {
  const variant = lab.variants.find((v) => v.name === name);
  if (!variant)
    throw new Error(
      `${vscode.workspace.asRelativePath(lab.uri)} has no variant named ${JSON.stringify(name)}; its variants are ${lab.variants.map((v) => JSON.stringify(v.name)).join(', ')}.`,
    );
  const { uri } = lab.prompt;
  const document = await vscode.workspace.openTextDocument(uri);
  const text = withVariantFields(document.getText(), variant.fields, name);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(
      `The variant ${JSON.stringify(name)} could not be written into ${lab.prompt.label}'s document: VS Code refused the edit (is the connection read-only?).`,
    );
  return uri;
}

/** `convai.applyVariant` `{ uri, variant }`, asking nothing: `{ document }`, the prompt document's URI, now dirty. */
export async function applyProgrammatic(
  connections: SuiteConnections,
  args: Record<string, unknown>,
): Promise<{ document: string }> {
  const { uri, variant } = args;
  if (typeof uri !== 'string' || typeof variant !== 'string')
    throw new Error(
      'convai.applyVariant takes { uri, variant }: the URI of a .prompttest.json suite with variants, and the name of one of them.',
    );
  const lab = await labSuite(connections, vscode.Uri.parse(uri));
  return { document: (await applyTo(lab, variant)).toString() };
}

/** Shows the prompt's document with the variant applied, and says what to do next. */
export async function showApplied(lab: LabSuite, name: string): Promise<vscode.Uri> {
  const uri = await applyTo(lab, name);
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(
    plain`Wrote the variant "${name}" into ${lab.prompt.label} as unsaved edits. Run its tests (they run unsaved edits as a trial), review the diff, then save.`,
  );
  return uri;
}

/** From the palette or the editor: the suite given or open, and a variant picked from its list. */
export async function applyAsked(
  connections: SuiteConnections,
  arg: unknown,
): Promise<{ document: string } | undefined> {
  const uri = namedTestFile(
    arg,
    [SUITE_SUFFIX],
    `Apply Variant works on a prompt test suite with variants: open its ${SUITE_SUFFIX} file first.`,
  );
  const { suite } = await suiteWithVariants(uri);
  const picked = await vscode.window.showQuickPick(
    (suite.variants ?? []).map((v) => ({
      label: plainText(v.name),
      description:
        v.file !== undefined
          ? plain`${v.field ?? ''} from ${v.file}`
          : plainText(Object.keys(v.fields ?? {}).join(', ')),
      name: v.name,
    })),
    { placeHolder: "Variant to write into the prompt's document as unsaved edits" },
  );
  if (!picked) return undefined;
  const lab = await labSuite(connections, uri);
  return { document: (await showApplied(lab, picked.name)).toString() };
}
