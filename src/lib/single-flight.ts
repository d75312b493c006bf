/**
 * Concurrent asks for one key share the call in flight, so a cached value
 * that runs out under load is read once, not once per waiting request. At
 * 256 concurrent sales, the API key's 2-second cache running out sent about
 * 190 identical lookups at once, and every sale queued behind them for the
 * pool's 20 connections (up to 164 waiting, 115 ms). Entries live only while
 * their call runs, so the map holds at most one per request in flight.
 */
export class SingleFlight<K, V> {
  private readonly calls = new Map<K, Promise<V>>();

  /** The answer of the call for `key` in flight, or of `call()` started now. A failure reaches every ask that shared it. */
  run(key: K, call: () => Promise<V>): Promise<V> {
    const inFlight = this.calls.get(key);
    if (inFlight) return inFlight;
    const started = call().finally(() => {
      if (this.calls.get(key) === started) this.calls.delete(key);
    });
    this.calls.set(key, started);
    return started;
  }

  /** Asks for `key` from now on start a call of their own: what the one in flight reads may already be out of date. */
  forget(key: K): void {
    this.calls.delete(key);
  }
}
