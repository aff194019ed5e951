import type { Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { initial } from './001-initial.ts';
import { groupParentIndex } from './002-group-parent-index.ts';
import { commandsGeofences } from './003-commands-geofences.ts';
import { motion } from './004-motion.ts';
import { events } from './005-events.ts';

/** Every migration, in order. Each takes the dialect because id columns differ. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-group-parent-index': groupParentIndex,
    '003-commands-geofences': commandsGeofences(dialect),
    '004-motion': motion(dialect),
    '005-events': events,
  };
}
