/**
 * Wraps `run` so that every call is answered by a run that started after the call. Calls that
 * arrive while a run is under way do not take its result (it may have read too early); they share
 * the one run queued behind it, so a burst of calls costs two runs, not one per call.
 */
export function runAfterCall(run: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const started = run().finally(() => {
      if (current === started) current = null;
    });
    current = started;
    return started;
  };
  return () => {
    if (current === null) return start();
    queued ??= current
      .catch(() => {})
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
}
