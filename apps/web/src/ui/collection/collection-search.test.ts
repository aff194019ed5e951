import { describe, expect, it } from 'vitest';
import { compareValues, filterItems, nextSort, sortItems } from './collection-search.ts';

const users = [
  { id: 1, name: 'João Souza', email: 'joao@example.com', administrator: false, attributes: { 'tarkan.phone': '11 99999', password: 'hunter2' } },
  { id: 2, name: 'ana lima', email: 'ana@example.com', administrator: true, attributes: {} },
  { id: 3, name: 'Bruno', email: '', administrator: false, attributes: { city: 'São Paulo' } },
];

describe('entity search', () => {
  it('matches any field, accent- and case-insensitively, every term somewhere', () => {
    expect(filterItems(users, 'joao').map((u) => u.id)).toEqual([1]);
    expect(filterItems(users, 'ANA example').map((u) => u.id)).toEqual([2]);
    expect(filterItems(users, '  ')).toHaveLength(3);
  });
  it('matches attribute values but never secrets', () => {
    expect(filterItems(users, 'sao paulo').map((u) => u.id)).toEqual([3]);
    expect(filterItems(users, '99999').map((u) => u.id)).toEqual([1]);
    expect(filterItems(users, 'hunter2')).toEqual([]);
  });
  it('does not match across two fields', () => {
    expect(filterItems(users, 'souzajoao')).toEqual([]);
  });
});

describe('entity sort', () => {
  it('sorts text naturally and keeps empty values last in both directions', () => {
    const by = (d: 'asc' | 'desc') => sortItems(users, (u) => u.email, d).map((u) => u.id);
    expect(by('asc')).toEqual([2, 1, 3]);
    expect(by('desc')).toEqual([1, 2, 3]);
    expect(sortItems([{ n: 'item 10' }, { n: 'item 9' }], (x) => x.n, 'asc').map((x) => x.n)).toEqual(['item 9', 'item 10']);
  });
  it('sorts numbers and booleans by value, ties in the original order', () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(sortItems(users, (u) => u.administrator, 'desc').map((u) => u.id)).toEqual([2, 1, 3]);
  });
  it('a new column sorts ascending, the same one flips', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'email')).toEqual({ key: 'email', direction: 'asc' });
  });
});
