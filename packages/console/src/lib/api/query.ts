import {
  QueryClient,
  useMutation,
  useQuery,
  type QueryKey,
  type QueryObserverOptions,
  type UseMutationOptions,
  type UseQueryResult,
} from "@tanstack/react-query";
import type { ApiFailure, ApiResult } from "./request";
import { sessionStore, useSession } from "./session";

/**
 * The console's server-state cache. Calls already report their own failures (request.ts), so
 * queries do not retry, and a tab regaining focus does not refetch: a screen loads when it
 * mounts or when a change invalidates it, as it did before the cache.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/** The one cache of the running console. */
export const queryClient = createQueryClient();

/** Marks keys built by {@link spaceKey}; everything the console caches is under it. */
export const SPACE_SCOPE = "space";

/**
 * The cache key of a space's data: the space id always comes first, so data of one space can
 * never answer a query of another (a switch changes every key, and no query keeps a previous
 * key's data as a placeholder).
 */
export function spaceKey(spaceId: string | undefined, ...parts: readonly unknown[]): QueryKey {
  return [SPACE_SCOPE, spaceId ?? "none", ...parts];
}

/** The current space's id, read outside React (for invalidation after a mutation). */
export function currentSpaceId(): string | undefined {
  return sessionStore.get().user?.spaceId;
}

/** An {@link ApiFailure} thrown by a query function so the query enters its error state. */
export class QueryFailure extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/** Unwraps a call's result for TanStack Query: the data, or a thrown {@link QueryFailure}. */
export async function unwrap<T>(result: Promise<ApiResult<T>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new QueryFailure(settled.error);
  return settled.data;
}

/** Options of {@link useSpaceQuery}. */
export interface SpaceQueryOptions<T> {
  /** The key below the space id, e.g. `['knowledge-bases']` or `['workflow', id]`. */
  key: readonly unknown[];
  /** The call; it receives the query's abort signal (an unmounted screen cancels its load). */
  fetch: (signal: AbortSignal) => Promise<ApiResult<T>>;
  enabled?: boolean;
  /** How long an answer stays fresh (ms); data fetched once per visit passes Infinity. */
  staleTime?: number;
  /**
   * While another page or search of the same list loads, keep showing the last one, as long
   * as it belongs to the same space (never across a switch).
   */
  keepPreviousPage?: boolean;
}

/**
 * Loads data of the current space through the cache. The key is always prefixed with the
 * current space id ({@link spaceKey}), so switching space can never show another space's data.
 */
export function useSpaceQuery<T>(options: SpaceQueryOptions<T>): UseQueryResult<T, QueryFailure> {
  const spaceId = useSession().user?.spaceId;
  return useQuery<T, QueryFailure>(spaceQueryOptions(spaceId, options));
}

/** The TanStack options {@link useSpaceQuery} passes for a space (exported for the key-rule test). */
export function spaceQueryOptions<T>(
  spaceId: string | undefined,
  { key, fetch, enabled = true, staleTime = 0, keepPreviousPage = false }: SpaceQueryOptions<T>,
): QueryObserverOptions<T, QueryFailure, T, T, QueryKey> {
  const queryKey = spaceKey(spaceId, ...key);
  return {
    queryKey,
    queryFn: ({ signal }) => unwrap(fetch(signal)),
    enabled,
    staleTime,
    ...(keepPreviousPage ? { placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === queryKey[1] ? previous : undefined) } : {}),
  };
}

/**
 * Loads data of the current space through the cache from an action rather than a screen (e.g.
 * opening an earlier conversation whose turns the chat then keeps and extends itself). Answers
 * undefined when the call failed; the call has already said why.
 */
export async function fetchSpace<T>(options: SpaceQueryOptions<T>): Promise<T | undefined> {
  try {
    return await queryClient.fetchQuery(spaceQueryOptions(currentSpaceId(), options));
  } catch {
    return undefined;
  }
}

/**
 * Invalidates keys of the current space after a change (each key also covers the keys below
 * it); answers once the screens showing them have refetched.
 */
export function invalidateSpace(...keys: (readonly unknown[])[]): Promise<void> {
  const spaceId = currentSpaceId();
  return Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: spaceKey(spaceId, ...key) }))).then(() => undefined);
}

/** Replaces the cached data of a key of the current space (a change whose answer already holds the new state). */
export function setSpaceData<T>(key: readonly unknown[], update: (current: T | undefined) => T | undefined): void {
  queryClient.setQueryData<T>(spaceKey(currentSpaceId(), ...key), update);
}

/** Options of {@link useSpaceMutation}. */
export interface SpaceMutationOptions<Variables, T> extends Omit<UseMutationOptions<T, QueryFailure, Variables>, "mutationFn"> {
  run: (variables: Variables) => Promise<ApiResult<T>>;
  /** Keys (below the space id) that the change makes stale. */
  invalidates?: (readonly unknown[])[];
}

/** A change through the SDK that, once done, invalidates the keys it makes stale in the current space. */
export function useSpaceMutation<Variables, T>({ run, invalidates = [], onSuccess, ...options }: SpaceMutationOptions<Variables, T>) {
  return useMutation<T, QueryFailure, Variables>({
    ...options,
    mutationFn: (variables) => unwrap(run(variables)),
    onSuccess: async (...args) => {
      await invalidateSpace(...invalidates);
      await onSuccess?.(...args);
    },
  });
}

/** A call's result with its data reshaped (e.g. a page's items), for caching only what a screen uses. */
export async function mapData<T, U>(result: Promise<ApiResult<T>>, map: (data: T) => U): Promise<ApiResult<U>> {
  const settled = await result;
  return settled.ok ? { ok: true, data: map(settled.data) } : settled;
}

/** What {@link useSpaceResource} answers: the query's state and a cache writer for changes answered in full. */
export interface SpaceResource<T> {
  query: UseQueryResult<T, QueryFailure>;
  data: T | undefined;
  /** A load is on its way (the first or a refetch). */
  loading: boolean;
  /** The last load failed (the call has already said why). */
  loadFailed: boolean;
  reload: () => Promise<unknown>;
  /** Replaces the cached data (a change whose answer holds the new state), without a refetch. */
  set: (update: (current: T) => T) => void;
}

/** {@link useSpaceQuery} for a screen that also edits what it shows in place. */
export function useSpaceResource<T>(options: SpaceQueryOptions<T>): SpaceResource<T> {
  const query = useSpaceQuery(options);
  const spaceId = useSession().user?.spaceId;
  const queryKey = spaceKey(spaceId, ...options.key);
  return {
    query,
    data: query.data,
    loading: query.isFetching,
    loadFailed: query.isError,
    reload: () => query.refetch(),
    set: (update) => queryClient.setQueryData<T>(queryKey, (current) => (current === undefined ? current : update(current))),
  };
}

/**
 * Drops every cached answer of a space (after switching away from it). A screen that loads
 * while the switch is on its way asks under the old space's key but the server answers for the
 * new space; nothing of that may stay cached for the old space.
 */
export async function forgetSpace(spaceId: string | undefined): Promise<void> {
  const queryKey = spaceKey(spaceId);
  await queryClient.cancelQueries({ queryKey });
  queryClient.removeQueries({ queryKey });
}
