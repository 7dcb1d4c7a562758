/**
 * A webview page that draws what the extension sends it (the flow map, the variant lab): a message sent before the
 * page listens waits for its "ready", and each message's promise resolves once the page says it drew that message or
 * a later one (a message replaced unseen is answered by the one that replaced it).
 */
import type * as vscode from 'vscode';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export class DrawnPage<M extends { seq: number }> {
  private ready = false;
  private pending: M | undefined;
  private readonly waiters = new Map<number, Waiter>();
  private sent = 0;

  /** `closedText`: why a draw did not happen, when the panel closes first. */
  constructor(private readonly closedText: string) {}

  /** Sends the message `make` numbers, now or once the page is ready; resolves when the page drew it. */
  send(webview: vscode.Webview, make: (seq: number) => M): Promise<void> {
    const seq = (this.sent += 1);
    const drawn = new Promise<void>((resolve, reject) => this.waiters.set(seq, { resolve, reject }));
    const message = make(seq);
    if (this.ready) void webview.postMessage(message);
    else this.pending = message;
    return drawn;
  }

  /** The page listens: the message that waited goes. */
  async pageReady(webview: vscode.Webview): Promise<void> {
    this.ready = true;
    const waiting = this.pending;
    this.pending = undefined;
    if (waiting) await webview.postMessage(waiting);
  }

  /** The page drew message `seq`, which answers for every message before it. */
  pageDrew(seq: number): void {
    for (const [waiting, waiter] of this.waiters) {
      if (waiting > seq) continue;
      waiter.resolve();
      this.waiters.delete(waiting);
    }
  }

  /** The panel closed: nothing waiting will be drawn, and a new panel's page starts unready. */
  closed(): void {
    this.ready = false;
    this.pending = undefined;
    for (const waiter of this.waiters.values()) waiter.reject(new Error(this.closedText));
    this.waiters.clear();
  }
}
