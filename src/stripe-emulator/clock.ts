import type { Store } from "./state/store.js";

/** Emulated time: the real clock plus an offset that the control API can move forward. */
export class Clock {
  constructor(private readonly store: Store) {}

  /** Unix seconds, as in every Stripe timestamp. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.store.state.clockOffsetSeconds;
  }

  advance(seconds: number): void {
    this.store.setClockOffset(this.store.state.clockOffsetSeconds + seconds);
  }
}
