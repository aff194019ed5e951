// The TanStack Query client of the signed-in shell (server data; live data goes through the
// live store). Created with the shell's chunk, so public screens never load it.
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: 1,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});
