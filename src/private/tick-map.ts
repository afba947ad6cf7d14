/**
 * A map emptied at the next promise job: for what one synchronous synthesis computes once and
 * must not keep once user code can run again. A promise job rather than queueMicrotask, which
 * jest's fake timers replace.
 */
export class TickMap<K, V> {
  private readonly entries = new Map<K, V>();
  private clearScheduled = false;

  public get(key: K): V | undefined {
    return this.entries.get(key);
  }

  public set(key: K, value: V): void {
    this.entries.set(key, value);
    if (!this.clearScheduled) {
      this.clearScheduled = true;
      void Promise.resolve().then(() => {
        this.entries.clear();
        this.clearScheduled = false;
      });
    }
  }

  public delete(key: K): void {
    this.entries.delete(key);
  }
}
