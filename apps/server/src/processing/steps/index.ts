// The processing steps, in the order they run. The events engine (motion, overspeed,
// geofences, alarms, …) appends its steps after these; each step may add `work.events`.
import type { Step } from '../work.ts';
import { filterInvalid } from './filter-invalid.ts';
import { fillOutdated } from './fill-outdated.ts';
import { order } from './order.ts';
import { distance } from './distance.ts';
import { motion } from './motion.ts';

export function defaultSteps(): Step[] {
  return [filterInvalid, fillOutdated, order, distance, motion];
}
