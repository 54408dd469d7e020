import type { Auth, Deps } from "../kernel";
import { requireInstanceOwner } from "../models/service/providers";
import { listOutbox } from "../platform/outbox";

/** Messages the embedded outbox holds, newest first; only the instance owner may read them. */
export async function readOutbox(deps: Pick<Deps, "db">, auth: Pick<Auth, "userId">, input: { to?: string; limit: number }) {
  await requireInstanceOwner(deps, auth);
  return listOutbox(deps.db, input);
}
