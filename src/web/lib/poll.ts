export type PollOutcome = "done" | "timedOut" | "aborted";

export type PollOptions<T> = {
  /** One look at the current value; a failure counts as "not yet". */
  check: () => Promise<T>;
  isDone: (value: T) => boolean;
  intervalMs: number;
  /** How many checks after the first one before giving up. */
  maxAttempts: number;
  signal: AbortSignal;
  /** Injected by tests; resolves after `ms` (or earlier when aborted). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
};

function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

async function passes<T>(check: () => Promise<T>, isDone: (value: T) => boolean): Promise<boolean> {
  try {
    return isDone(await check());
  } catch {
    return false;
  }
}

/**
 * Checks at once, then every `intervalMs` up to `maxAttempts` more times, until `isDone`
 * (product rules, States and transitions: poll every second, up to 30 times, after returning from Stripe).
 */
export async function pollUntil<T>({
  check,
  isDone,
  intervalMs,
  maxAttempts,
  signal,
  wait = waitFor,
}: PollOptions<T>): Promise<PollOutcome> {
  if (await passes(check, isDone)) return signal.aborted ? "aborted" : "done";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    await wait(intervalMs, signal);
    if (signal.aborted) return "aborted";
    if (await passes(check, isDone)) return signal.aborted ? "aborted" : "done";
  }
  return signal.aborted ? "aborted" : "timedOut";
}
