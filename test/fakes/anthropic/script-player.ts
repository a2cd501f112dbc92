import type { RecordedRequest, ScriptItem, ScriptReply } from './types.js';

/** Hands out scripted replies in order; knows how many were used. */
export class ScriptPlayer {
  private items: ScriptItem[] = [];
  private played = 0;

  constructor(items: ScriptItem[] = []) {
    this.items = [...items];
  }

  set(items: ScriptItem[]): void {
    this.items = [...items];
    this.played = 0;
  }

  push(...items: ScriptItem[]): void {
    this.items.push(...items);
  }

  get remaining(): number {
    return this.items.length - this.played;
  }

  get total(): number {
    return this.items.length;
  }

  async next(request: RecordedRequest): Promise<ScriptReply | undefined> {
    const item = this.items[this.played];
    if (item === undefined) return undefined;
    this.played += 1;
    return typeof item === 'function' ? item(request) : structuredClone(item);
  }
}
