import { describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import type { Query } from './http.ts';
import { fetchPositionsByIds, idBatches, POSITION_ID_BATCH } from './positions.ts';

const position = (id: number) => ({ id, deviceId: 1 }) as Position;

describe('positions by id', () => {
  it('batches at most 500 ids, unique and positive, in first-seen order', () => {
    expect(POSITION_ID_BATCH).toBe(500);
    expect(idBatches([])).toEqual([]);
    expect(idBatches([3, 1, 3, 0, -2, 2])).toEqual([[3, 1, 2]]);
    const ids = Array.from({ length: 1_201 }, (_, i) => i + 1);
    const batches = idBatches(ids);
    expect(batches.map((b) => b.length)).toEqual([500, 500, 201]);
    expect(batches.flat()).toEqual(ids);
    expect(idBatches(Array.from({ length: 500 }, (_, i) => i + 1))).toHaveLength(1);
  });

  it('asks one request per batch and merges the answers in the order asked', async () => {
    const asked: number[][] = [];
    const get = async (query: Query) => {
      const batch = query.id as number[];
      asked.push(batch);
      // The server answers in its own order and skips unknown ids (here: multiples of 7).
      return batch.filter((id) => id % 7 !== 0).reverse().map(position);
    };
    const ids = Array.from({ length: 1_100 }, (_, i) => 1_100 - i);
    const result = await fetchPositionsByIds([...ids, ...ids.slice(0, 10)], get);
    expect(asked.map((b) => b.length)).toEqual([500, 500, 100]);
    expect(result.map((p) => p.id)).toEqual(ids.filter((id) => id % 7 !== 0));
  });

  it('asks nothing for no ids', async () => {
    let calls = 0;
    expect(await fetchPositionsByIds([], async () => (calls++, []))).toEqual([]);
    expect(calls).toBe(0);
  });
});
