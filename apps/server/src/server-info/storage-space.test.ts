import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageSpace } from './storage-space.ts';

describe('storageSpace', () => {
  it('gives [usable, total] bytes of the filesystem of the directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-space-'));
    try {
      const disk = fs.statfsSync(dir);
      const space = await storageSpace(dir);
      expect(space).toHaveLength(2);
      expect(space![1]).toBe(disk.blocks * disk.bsize);
      expect(space![0]).toBeGreaterThanOrEqual(0);
      expect(space![0]).toBeLessThanOrEqual(space![1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('measures a directory not made yet at its nearest existing parent', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-space-'));
    try {
      const space = await storageSpace(path.join(parent, 'not', 'yet'));
      expect(space?.[1]).toBe(fs.statfsSync(parent).blocks * fs.statfsSync(parent).bsize);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
