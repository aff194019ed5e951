// Positions by id (GET /api/positions?id=…&id=…): spec §7/§9 asks for batches when there are
// more than 500 ids, so a long list never makes a URL the server or a proxy refuses. Ids are
// de-duplicated (non-positive ones dropped); batches run one after the other and the answers
// are merged in the order the ids were first asked (ids the server does not return are skipped).
import type { Position } from '@rastro/domain/entities';
import { api, type Query } from './http.ts';

export const POSITION_ID_BATCH = 500;

export type GetPositions = (query: Query) => Promise<Position[]>;

const defaultGet: GetPositions = (query) => api.get<Position[]>('/positions', query);

/** Splits ids (unique, positive, first-seen order) into batches of at most `size`. */
export function idBatches(ids: readonly number[], size = POSITION_ID_BATCH): number[][] {
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
  const batches: number[][] = [];
  for (let i = 0; i < unique.length; i += size) batches.push(unique.slice(i, i + size));
  return batches;
}

export async function fetchPositionsByIds(ids: readonly number[], get: GetPositions = defaultGet): Promise<Position[]> {
  const batches = idBatches(ids);
  if (batches.length === 0) return [];
  const byId = new Map<number, Position>();
  for (const batch of batches) {
    const answer = await get({ id: batch });
    if (Array.isArray(answer)) for (const p of answer) byId.set(p.id, p);
  }
  return batches.flat().flatMap((id) => byId.get(id) ?? []);
}
