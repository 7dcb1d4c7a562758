/**
 * A suite's variants made ready to run: each `file` variant's text read, relative to the suite, by whichever shell
 * reads files (the CLI's file system, VS Code's workspace). A file that cannot be read is a problem at its name.
 */
import { messageOf } from '../text';
import { textOfFile } from '../tenant/resource-files';
import type { SuiteProblem } from '../prompt-tests/suite';
import type { Variant, VariantSpec } from './variant-spec';

/** Reads a file named relative to the suite; rejects when it cannot. */
export type ReadBesideSuite = (relative: string) => Promise<string>;

/** The variants with every field known, or the problems of the files that could not be read. */
export async function readVariants(
  specs: readonly VariantSpec[],
  read: ReadBesideSuite,
): Promise<{ variants: Variant[]; problems: SuiteProblem[] }> {
  const problems: SuiteProblem[] = [];
  const variants: Variant[] = [];
  for (const spec of specs) {
    if (spec.file === undefined || spec.field === undefined) {
      variants.push({ name: spec.name, fields: spec.fields ?? {} });
      continue;
    }
    try {
      // A Markdown file holds its text and one final newline, as a pulled folder's prompt texts do.
      variants.push({ name: spec.name, fields: { [spec.field]: textOfFile(await read(spec.file)) } });
    } catch (error) {
      problems.push({
        path: [],
        message: `variant "${spec.name}": the file "${spec.file}" could not be read (${messageOf(error)}); give a path relative to the suite`,
        range: spec.fileRange ?? spec.range,
      });
    }
  }
  return { variants, problems };
}
