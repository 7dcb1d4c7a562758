import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../harness/paths';

interface Manifest {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  capabilities: { untrustedWorkspaces: { supported: string | boolean; restrictedConfigurations?: string[] } };
}

/** The settings that make the extension write to the service or spend requests on its own. */
const WRITE_OR_SPEND = [
  'convai.uploadOnAutoSave',
  'convai.testTarget',
  'convai.confirmRequestsAbove',
  // A trial creates and deletes prompts on the service.
  'convai.tests.unsavedEdits',
];

describe('settings an untrusted workspace may not choose', () => {
  it('lists every setting that writes or spends as restricted, or makes it application-scoped', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
    const { properties } = manifest.contributes.configuration;
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    for (const name of WRITE_OR_SPEND) {
      assert.ok(properties[name], `${name} is a setting of the extension`);
      assert.ok(
        restricted.includes(name) || properties[name].scope === 'application',
        `${name}: restricted in Restricted Mode, or application-scoped`,
      );
    }
    for (const name of restricted)
      assert.ok(properties[name], `restrictedConfigurations names ${name}, which is no setting of the extension`);
  });
});
