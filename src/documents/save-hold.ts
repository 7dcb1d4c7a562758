/**
 * No save writes the service while a prompt test run is under way (contract: "Trials"): a test run must never
 * change what callers hear, and VS Code's `testing.saveBeforeTest` saves every dirty editor as a run starts, just
 * after it has asked the extension to run. A run takes the hold before its first await, so the saves VS Code starts
 * for it find it taken; they are refused, and VS Code keeps each document dirty with the user's text.
 */
export class SaveHold {
  private runs = 0;

  /** Holds saves from this call until `work` settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    try {
      return await work();
    } finally {
      this.runs--;
    }
  }

  /** Why a save may not write now; undefined when it may. */
  reason(label: string): string | undefined {
    return this.runs === 0
      ? undefined
      : `${label} was not saved: a prompt test run is under way, and a test never writes what callers hear (it runs your unsaved edits as a trial, or the saved version, as convai.tests.unsavedEdits says). Your text is kept; save again once the run ends.`;
  }
}
