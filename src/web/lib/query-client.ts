import { QueryClient } from "@tanstack/react-query";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Failures are already reported globally (5xx, network) or by the caller (4xx); retrying
      // would only repeat them.
      retry: false,
    },
  },
});
