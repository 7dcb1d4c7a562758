/**
 * No save writes the service for a prompt test run (contract: "Trials"): a test run must never change what callers
 * hear. VS Code's `testing.saveBeforeTest` saves every dirty editor as a Testing-view run starts, right after it has
 * asked the extension to run, and its saves may arrive after a short run has ended. So a run holds every save while
 * it runs, and the saves VS Code owes it (the documents dirty at its start, `owed`) whenever they come. A refused
 * save throws: VS Code keeps the document dirty with the user's text.
 */
export class SaveHold {
  private runs = 0;
  /** The URIs of documents VS Code will save because a run started (trials/engine.ts owe()). */
  readonly owed = new Set<string>();

  /** Holds saves from this call until `work` settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    try {
      return await work();
    } finally {
      this.runs--;
    }
  }

  /** Why a save of the document at `key` may not write now; undefined when it may. */
  reason(key: string, label: string): string | undefined {
    if (!this.owed.delete(key) && this.runs === 0) return undefined;
    return `${label} was not saved: a prompt test run started, and tests never save. Your text is kept; save again to send it.`;
  }
}
