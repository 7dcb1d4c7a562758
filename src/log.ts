import * as vscode from 'vscode';
import type { Logger } from './core/logger';

/** One "ConvAI" output channel; each component logs through its own prefixed logger. */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('ConvAI', { log: true });
  }

  for(component: string): Logger {
    const tag = `[${component}]`;
    const channel = this.channel;
    return {
      trace: (message) => channel.trace(`${tag} ${message}`),
      debug: (message) => channel.debug(`${tag} ${message}`),
      info: (message) => channel.info(`${tag} ${message}`),
      warn: (message) => channel.warn(`${tag} ${message}`),
      error: (message) => channel.error(typeof message === 'string' ? `${tag} ${message}` : message),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
