import { useEffect, useState } from "react";

/** The search as the server gets it: typing settles for a moment first, so each key is not a request. */
export function useSettledSearch(value: string, delayMs = 300): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
