// Runs tasks one after another per key (a device id), different keys independently. A task
// that finishes synchronously while nothing is queued for its key costs no promise chain,
// which is the common case on the hot path.
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  get busyKeys(): number {
    return this.tails.size;
  }

  run<T>(key: K, task: () => T | Promise<T>): Promise<T> {
    const tail = this.tails.get(key);
    let result: Promise<T>;
    if (tail) {
      // The previous task's failure was reported to its own caller; this one runs regardless.
      result = tail.then(task, task);
    } else {
      let value: T | Promise<T>;
      try {
        value = task();
      } catch (error) {
        return Promise.reject(error);
      }
      if (!(value instanceof Promise)) return Promise.resolve(value);
      result = value;
    }
    this.tails.set(key, result);
    const release = () => {
      if (this.tails.get(key) === result) this.tails.delete(key);
    };
    result.then(release, release);
    return result;
  }
}
