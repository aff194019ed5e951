import type { Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { initial } from './001-initial.ts';
import { groupParentIndex } from './002-group-parent-index.ts';
import { commandsGeofences } from './003-commands-geofences.ts';
import { motion } from './004-motion.ts';
import { events } from './005-events.ts';
import { authHardening } from './006-auth-hardening.ts';
import { restrictions } from './007-restrictions.ts';
import { commandLog } from './008-command-log.ts';
import { entities } from './009-entities.ts';
import { statistics } from './010-statistics.ts';
import { userTree } from './011-user-tree.ts';
import { audit } from './012-audit.ts';

/** Every migration, in order. Each takes the dialect because id columns differ. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-group-parent-index': groupParentIndex,
    '003-commands-geofences': commandsGeofences(dialect),
    '004-motion': motion(dialect),
    '005-events': events,
    '006-auth-hardening': authHardening,
    '007-restrictions': restrictions,
    '008-command-log': commandLog(dialect),
    '009-entities': entities(dialect),
    '010-statistics': statistics(dialect),
    '011-user-tree': userTree(dialect),
    '012-audit': audit(dialect),
  };
}
