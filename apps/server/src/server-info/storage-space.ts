// `storageSpace` of GET /api/server, shown to administrators as Traccar does: [usable, total]
// bytes of a filesystem. Traccar lists every filesystem of its host; Rastro reports the one that
// holds its data directory, the disk whose filling up stops it.
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * [usable, total] bytes of the filesystem of `dir`. A directory not made yet (PostgreSQL keeps
 * nothing there) is measured at its nearest existing parent, where it would be made. null when
 * the system cannot tell.
 */
export async function storageSpace(dir: string): Promise<[number, number] | null> {
  let at = path.resolve(dir);
  for (;;) {
    try {
      const stats = await fs.statfs(at);
      return [stats.bavail * stats.bsize, stats.blocks * stats.bsize];
    } catch (error) {
      const parent = path.dirname(at);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return null;
      at = parent;
    }
  }
}
